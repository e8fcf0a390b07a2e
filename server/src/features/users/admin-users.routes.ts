import type Router from '@koa/router';
import type { Context } from 'koa';
import type { MikroORM } from '@mikro-orm/postgresql';
import { routes } from '@everest/core/contract';
import { cacheTable } from '../../caches';
import { bind, type AnswerOf } from '../../http/route';
import { SerializedJson } from '../../http/serialized-json';
import type { AppState, SessionUser } from '../../http/state';
import type { Config } from '../../config';
import type { NotifiedCache } from '../../db/notified-cache';
import { createUser, deleteUser, editUser, listUsers, resendInvitation, sendResetLink, type AdminCall } from './admin-users.service';
import { assignProperty, listUserProperties, removeProperty } from './property-access.service';

/** The administrators' user lists as ready JSON, per search and page (cacheTable.userLists). */
export type UserListCache = NotifiedCache<SerializedJson<AnswerOf<typeof routes.adminUsers>>>;

/**
 * Users administration: GET users and user-properties; POST create-user, edit-user, delete-user,
 * reset-password, resend-invitation, assign-property, remove-property. Administrators only, by the route table.
 * Every answer is no-store: they hold investors' details, and create-user's a password.
 */
export function adminUsersRoutes(router: Router<AppState>, { config, orm, userLists }: { config: Config; orm: MikroORM; userLists: UserListCache }): void {
  const privateAnswer = (ctx: Context) => ctx.set('Cache-Control', 'no-store');
  const adminCall = (ctx: Context & { state: AppState }, actor: SessionUser): AdminCall => {
    privateAnswer(ctx);
    return { em: ctx.state.em, config, actor, clientAddress: ctx.ip };
  };

  // From memory while no account changes (caches.ts); the answer is the same for every administrator.
  bind(router, routes.adminUsers, async ({ query, ctx }) => {
    privateAnswer(ctx);
    return userLists.get(cacheTable.userLists.key(query), async () => SerializedJson.of(await listUsers(orm.em.fork(), config, query)));
  });
  bind(router, routes.adminUserProperties, async ({ ctx }) => {
    privateAnswer(ctx);
    return listUserProperties(ctx.state.em);
  });

  bind(router, routes.createUser, async ({ body, user, ctx }) => createUser(adminCall(ctx, user), body), {
    effects: ['changes-users', 'queues-mail'],
  });
  // A new e-mail, role or deactivation ends the user's sessions; the old address hears of a new
  // one; a new role changes what the user's document list holds.
  bind(router, routes.editUser, async ({ body, user, ctx }) => editUser(adminCall(ctx, user), body), {
    effects: ['changes-users', 'ends-sessions', 'queues-mail', 'changes-shares', 'changes-documents'],
  });
  bind(router, routes.deleteUser, async ({ body, user, ctx }) => deleteUser(adminCall(ctx, user), body.userId), {
    effects: ['changes-users', 'ends-sessions', 'changes-shares'],
  });
  bind(router, routes.adminResetPassword, async ({ body, user, ctx }) => sendResetLink(adminCall(ctx, user), body.userId), {
    effects: ['queues-mail'],
  });
  bind(router, routes.resendInvitation, async ({ body, user, ctx }) => resendInvitation(adminCall(ctx, user), body.userId), {
    effects: ['queues-mail'],
  });
  // Access to a property changes the investor's document list: this server's lists go at once,
  // as its next look may be answered from memory within microseconds, before the notice comes.
  bind(router, routes.assignProperty, async ({ body, user, ctx }) => assignProperty(adminCall(ctx, user), body), { effects: ['changes-documents'] });
  bind(router, routes.removeProperty, async ({ body, user, ctx }) => removeProperty(adminCall(ctx, user), body), { effects: ['changes-documents'] });
}
