import type Router from '@koa/router';
import type { Context } from 'koa';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState, SessionUser } from '../../http/state';
import type { Services } from '../../services';
import {
  assignProperty,
  createUser,
  deleteUser,
  editUser,
  listUserProperties,
  listUsers,
  removeProperty,
  sendResetLink,
  type AdminCall,
} from './admin-users.service';

/**
 * Users administration: GET users and user-properties; POST create-user, edit-user, delete-user,
 * reset-password, assign-property, remove-property. Administrators only, by the route table.
 * Every answer is no-store: they hold investors' details, and create-user's a password.
 */
export function adminUsersRoutes(router: Router<AppState>, { config }: Services): void {
  const privateAnswer = (ctx: Context) => ctx.set('Cache-Control', 'no-store');
  const adminCall = (ctx: Context & { state: AppState }, actor: SessionUser): AdminCall => {
    privateAnswer(ctx);
    return { em: ctx.state.em, config, actor, clientAddress: ctx.ip };
  };

  bind(router, routes.adminUsers, async ({ query, ctx }) => {
    privateAnswer(ctx);
    return listUsers(ctx.state.em, config, query);
  });
  bind(router, routes.adminUserProperties, async ({ ctx }) => {
    privateAnswer(ctx);
    return listUserProperties(ctx.state.em);
  });

  bind(router, routes.createUser, async ({ body, user, ctx }) => createUser(adminCall(ctx, user), body), { effects: ['queues-mail'] });
  // A new e-mail, role or deactivation ends the user's sessions; the old address hears of a new one.
  bind(router, routes.editUser, async ({ body, user, ctx }) => editUser(adminCall(ctx, user), body), {
    effects: ['ends-sessions', 'queues-mail'],
  });
  bind(router, routes.deleteUser, async ({ body, user, ctx }) => deleteUser(adminCall(ctx, user), body.userId), {
    effects: ['ends-sessions'],
  });
  bind(router, routes.adminResetPassword, async ({ body, user, ctx }) => sendResetLink(adminCall(ctx, user), body.userId), {
    effects: ['queues-mail'],
  });
  bind(router, routes.assignProperty, async ({ body, user, ctx }) => assignProperty(adminCall(ctx, user), body));
  bind(router, routes.removeProperty, async ({ body, user, ctx }) => removeProperty(adminCall(ctx, user), body));
}
