import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Config } from '../../config';
import { listIncomingShares, listOutgoingShares, listUserShares, requireInvestor } from './shares.service';
import { createShare, endShare, revokeShare } from './share-writes.service';

/**
 * Shared access: an investor's shares (list, create, revoke), the shares given to the
 * caller, and the administrators' view of a user's shares and end of any. Investors only for the
 * first three, refused before a byte of the body is read.
 */
export function sharesRoutes(router: Router<AppState>, { config }: { config: Config }): void {
  const investorsOnly = {
    before: async ({ user }: { user: AppState['user'] }) => {
      if (user) requireInvestor(user);
      return null;
    },
  };

  bind(
    router,
    routes.shares,
    async ({ user, ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return listOutgoingShares(ctx.state.em, config, user);
    },
    investorsOnly,
  );

  // A new account for a new address, and an e-mail either way.
  bind(
    router,
    routes.createShare,
    async ({ user, body, ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return createShare(ctx.state.em, config, user, body, ctx.ip);
    },
    { ...investorsOnly, effects: ['queues-mail', 'changes-users', 'changes-shares'] },
  );

  // The revoked share reads nothing from this server's next request on (other instances follow on the database's notice).
  bind(router, routes.revokeShare, async ({ user, body, ctx }) => revokeShare(ctx.state.em, user, body.shareId, ctx.ip), {
    ...investorsOnly,
    effects: ['changes-shares'],
  });

  bind(router, routes.sharedWithMe, async ({ user, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return listIncomingShares(ctx.state.em, config, user);
  });

  bind(router, routes.adminUserShares, async ({ query, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return listUserShares(ctx.state.em, config, query.userId);
  });

  bind(router, routes.endShare, async ({ user, body, ctx }) => endShare(ctx.state.em, user, body.shareId, ctx.ip), { effects: ['changes-shares'] });
}
