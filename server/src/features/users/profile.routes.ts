import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Config } from '../../config';
import { confirmEmailChange, undoEmailChange } from './email-change.service';
import { cancelOwnEmailChange, getProfile, updateProfile } from './profile.service';

/**
 * The caller's own profile: GET profile, POST update-profile; and the links of an e-mail change
 * by its link: confirm, undo (public, the token in the body) and cancel.
 */
export function profileRoutes(router: Router<AppState>, { config }: { config: Config }): void {
  bind(router, routes.profile, async ({ user, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return getProfile(ctx.state.em, user);
  });

  // A new e-mail address only waits for its link here: the session's address stays as it is.
  bind(
    router,
    routes.updateProfile,
    async ({ body, user, ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return updateProfile(ctx.state.em, config, user, body, ctx.ip);
    },
    { effects: ['queues-mail', 'changes-users'] },
  );

  bind(
    router,
    routes.cancelEmailChange,
    async ({ user, ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return cancelOwnEmailChange(ctx.state.em, user);
    },
  );

  // The session records carry the e-mail address (confirm, undo), and undo ends every session.
  bind(
    router,
    routes.confirmEmailChange,
    async ({ body, ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return confirmEmailChange(ctx.state.em, config, body.token, ctx.ip);
    },
    { effects: ['ends-sessions', 'queues-mail', 'changes-users'] },
  );
  bind(
    router,
    routes.undoEmailChange,
    async ({ body, ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return undoEmailChange(ctx.state.em, config, body.token, ctx.ip);
    },
    { effects: ['ends-sessions', 'queues-mail', 'changes-users'] },
  );
}
