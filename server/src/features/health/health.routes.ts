import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { HttpError } from '../../http/errors';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Services } from '../../services';

export function healthRoutes(router: Router<AppState>, { logger }: Services): void {
  bind(router, routes.health, async ({ ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      await ctx.state.em.getConnection().execute('select 1');
    } catch (error) {
      logger.warn('health check: the database does not answer', error);
      throw new HttpError(503, 'The database is not reachable.');
    }
    return { status: 'ok', database: 'ok' } as const;
  });
}
