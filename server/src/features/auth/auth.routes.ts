import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Services } from '../../services';
import { changePassword, dummyPasswordHash, login, requestPasswordReset, resetPassword, validateResetToken } from './auth.service';
import { signedInUser } from './session';

/** Sign-in and passwords: POST login, change-password, request-password-reset, reset-password; GET validate-reset-token. */
export function authRoutes(router: Router<AppState>, { config, outbox, sessionUsers }: Services): void {
  // Made now rather than on the first unknown address, whose answer would otherwise be slower.
  void dummyPasswordHash();

  bind(router, routes.login, async ({ body, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return login(ctx.state.em, config, body, ctx.ip);
  });

  // Calls that may queue mail kick the outbox worker once their transaction has committed;
  // calls that end sessions drop the session records at once rather than wait for the
  // database's notification.
  bind(router, routes.changePassword, async ({ body, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    const answer = await changePassword(ctx.state.em, config, signedInUser(ctx.state), body);
    sessionUsers.clear(); // the old sessions end on this server's very next request
    outbox.kick();
    return answer;
  });

  bind(router, routes.requestPasswordReset, async ({ body, ctx }) => {
    const answer = await requestPasswordReset(ctx.state.em, config, body.email, ctx.ip);
    outbox.kick();
    return answer;
  });

  bind(router, routes.validateResetToken, async ({ params, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return validateResetToken(ctx.state.em, params.token);
  });

  bind(router, routes.resetPassword, async ({ body, ctx }) => {
    const answer = await resetPassword(ctx.state.em, body);
    sessionUsers.clear();
    outbox.kick();
    return answer;
  });
}
