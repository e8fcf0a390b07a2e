import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { contentDisposition } from '../../http/file-response';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import { activityCsv, activityEntry, activityPeople, listActivity } from './activity.service';

/**
 * The Activity tab: administrators only, by the route table (employees see what
 * investors see, DECISIONS.md). Answers are no-store, like every answer to a session.
 */
export function activityRoutes(router: Router<AppState>): void {
  bind(router, routes.activity, async ({ ctx, query }) => {
    const { before, limit, ...filter } = query;
    return listActivity(ctx.state.em, filter, before, limit);
  });
  bind(router, routes.activityPeople, async ({ ctx }) => activityPeople(ctx.state.em));
  bind(router, routes.activityEntry, async ({ ctx, params }) => activityEntry(ctx.state.em, params.id));
  bind(router, routes.activityCsv, async ({ ctx, query }) => {
    const { csv, filename, truncated } = await activityCsv(ctx.state.em, query);
    ctx.set('Content-Disposition', contentDisposition('attachment', filename));
    // The panel tells the administrator when the view held more than one file carries.
    if (truncated) ctx.set('Activity-Truncated', 'true');
    ctx.type = 'text/csv; charset=utf-8';
    // A BOM, so that Excel reads the file as UTF-8 (names with accents).
    ctx.body = `\uFEFF${csv}`;
  });
}
