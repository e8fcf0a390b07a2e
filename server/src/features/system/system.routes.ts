import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Services } from '../../services';
import { systemStatus } from './system.service';

/** The System tab: administrators only, by the route table; never cached, it is the state now. */
export function systemRoutes(router: Router<AppState>, { config, database }: Pick<Services, 'config' | 'database'>): void {
  bind(router, routes.systemStatus, async ({ ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return systemStatus(ctx.state.em, config, database.embedded);
  });
}
