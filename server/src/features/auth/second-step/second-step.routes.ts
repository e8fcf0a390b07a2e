import type Router from '@koa/router';
import type { Context } from 'koa';
import { routes } from '@everest/core/contract';
import { bind } from '../../../http/route';
import type { AppState } from '../../../http/state';
import type { Config } from '../../../config';
import {
  adminSecondStep,
  confirmTotp,
  passkeyCreationOptions,
  regenerateBackupCodes,
  registerPasskey,
  removePasskey,
  removeSecondStep,
  removeTotp,
  secondStepStatus,
  startTotp,
} from './second-step.service';
import { passkeySignInOptions, verifyLogin } from './second-step-sign-in';

/**
 * Two-step sign-in: the second half of a sign-in, the user's own set-up in Manage
 * Profile, and the administrators' removal. Every answer is no-store: some carry a session, a
 * TOTP secret or backup codes. Calls that add or remove a method declare 'ends-sessions', so that
 * this server's session records learn at once whether the user has a second step. The user's own
 * changes each take an owner proof, checked in the service.
 */
export function secondStepRoutes(router: Router<AppState>, { config }: { config: Config }): void {
  const noStore = (ctx: Context) => ctx.set('Cache-Control', 'no-store');

  bind(
    router,
    routes.loginVerify,
    async ({ body, ctx }) => {
      noStore(ctx);
      return verifyLogin(ctx.state.em, config, body, ctx.ip);
    },
    { effects: ['changes-users', 'queues-mail'] },
  );

  // Hands out a challenge only; failures of a made-up mfaToken count like wrong codes.
  bind(router, routes.passkeySignInOptions, async ({ body, ctx }) => {
    noStore(ctx);
    return passkeySignInOptions(ctx.state.em, config, body, ctx.ip);
  });

  bind(router, routes.secondStep, async ({ user, ctx }) => {
    noStore(ctx);
    return secondStepStatus(ctx.state.em, config, user);
  });

  bind(router, routes.startTotp, async ({ body, user, ctx }) => {
    noStore(ctx);
    return startTotp(ctx.state.em, config, user, body, ctx.ip);
  });

  bind(
    router,
    routes.confirmTotp,
    async ({ body, user, ctx }) => {
      noStore(ctx);
      return confirmTotp(ctx.state.em, config, user, body, ctx.ip);
    },
    { effects: ['ends-sessions', 'queues-mail'] },
  );

  bind(
    router,
    routes.removeTotp,
    async ({ body, user, ctx }) => {
      noStore(ctx);
      return removeTotp(ctx.state.em, config, user, body, ctx.ip);
    },
    { effects: ['ends-sessions', 'queues-mail'] },
  );

  bind(
    router,
    routes.regenerateBackupCodes,
    async ({ body, user, ctx }) => {
      noStore(ctx);
      return regenerateBackupCodes(ctx.state.em, config, user, body, ctx.ip);
    },
    { effects: ['queues-mail'] },
  );

  bind(router, routes.passkeyCreationOptions, async ({ body, user, ctx }) => {
    noStore(ctx);
    return passkeyCreationOptions(ctx.state.em, config, user, body, ctx.ip);
  });

  bind(
    router,
    routes.registerPasskey,
    async ({ body, user, ctx }) => {
      noStore(ctx);
      return registerPasskey(ctx.state.em, config, user, body);
    },
    { effects: ['ends-sessions', 'queues-mail'] },
  );

  bind(
    router,
    routes.removePasskey,
    async ({ body, user, ctx }) => {
      noStore(ctx);
      return removePasskey(ctx.state.em, config, user, body, ctx.ip);
    },
    { effects: ['ends-sessions', 'queues-mail'] },
  );

  bind(router, routes.adminSecondStep, async ({ query, ctx }) => {
    noStore(ctx);
    return adminSecondStep(ctx.state.em, query.userId);
  });

  bind(
    router,
    routes.removeSecondStep,
    async ({ body, user, ctx }) => {
      noStore(ctx);
      return removeSecondStep(ctx.state.em, user, body.userId, ctx.ip);
    },
    { effects: ['ends-sessions', 'queues-mail'] },
  );
}
