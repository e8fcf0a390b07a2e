import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import { secondStepRoutes } from './second-step/second-step.routes';
import { changePassword, dummyPasswordHash, login, logout, requestPasswordReset, resetPassword, validateResetToken, type SignInServices } from './auth.service';

/**
 * Sign-in, sign-out and passwords: POST login, logout, change-password, request-password-reset,
 * reset-password; GET validate-reset-token; and the second step of a sign-in (second-step/).
 */
export function authRoutes(router: Router<AppState>, services: SignInServices): void {
  const { config } = services;
  // Made now rather than on the first unknown address, whose answer would otherwise be slower.
  void dummyPasswordHash();

  // A sign-in moves the account's last-login time, which the administrators' user list shows.
  bind(
    router,
    routes.login,
    async ({ body, ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return login(ctx.state.em, services, body, ctx.ip);
    },
    // A sign-in of an account being guessed may e-mail its owner.
    { effects: ['changes-users', 'queues-mail'] },
  );

  bind(router, routes.logout, async ({ user, ctx }) => logout(ctx.state.em, user), { effects: ['ends-sessions'] });

  bind(
    router,
    routes.changePassword,
    async ({ body, user, ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return changePassword(ctx.state.em, config, user, body, ctx.ip);
    },
    { effects: ['ends-sessions', 'queues-mail'] },
  );

  bind(router, routes.requestPasswordReset, async ({ body, ctx }) => requestPasswordReset(ctx.state.em, config, body.email, ctx.ip), {
    effects: ['queues-mail'],
  });

  bind(router, routes.validateResetToken, async ({ params, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return validateResetToken(ctx.state.em, params.token, ctx.ip);
  });

  bind(router, routes.resetPassword, async ({ body, ctx }) => resetPassword(ctx.state.em, body, ctx.ip), {
    effects: ['ends-sessions', 'queues-mail'],
  });

  secondStepRoutes(router, services);
}
