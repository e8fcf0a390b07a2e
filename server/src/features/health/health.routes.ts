import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { HttpError } from '../../http/errors';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';

export function healthRoutes(router: Router<AppState>, { logger, lifecycle, orm }: { logger: Logger; lifecycle: { stopping: boolean }; orm: MikroORM }): void {
  // Liveness: asks nothing of the database, so an orchestrator never restarts a server that is
  // only waiting for PostgreSQL to come back (it reconnects by itself).
  bind(router, routes.health, async ({ ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return { status: 'ok' } as const;
  });

  // Readiness: whether a load balancer should send this instance requests.
  bind(router, routes.healthReady, async ({ ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    if (lifecycle.stopping) throw new HttpError(503, 'The server is shutting down.');
    let pending: string[];
    try {
      pending = (await orm.getMigrator().getPendingMigrations()).map((migration) => migration.name);
    } catch (error) {
      logger.warn('readiness: the database does not answer', error);
      throw new HttpError(503, 'The database is not reachable.');
    }
    // Another instance's newer release has not migrated yet, or this one's start has not.
    if (pending.length > 0) throw new HttpError(503, `The database is missing ${pending.length} migration${pending.length === 1 ? '' : 's'} (${pending.join(', ')}).`);
    return { status: 'ready', database: 'ok', migrations: 'applied' } as const;
  });
}
