import type Router from '@koa/router';
import type { Context } from 'koa';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState, SessionUser } from '../../http/state';
import { endOtherSessions, endSession, listSessions, type SessionUse } from './sessions.service';

/** This request's use of its session, as the list records it before answering. */
function useOf(ctx: Context, user: SessionUser): SessionUse {
  return {
    sessionId: user.session.id,
    userId: user.id,
    tokenVersion: user.session.tokenVersion,
    expiresAt: user.session.expiresAt,
    userAgent: ctx.get('user-agent'),
    clientAddress: ctx.ip,
    at: new Date(),
  };
}

/**
 * The account's signed-in sessions in Manage Profile: GET sessions, POST
 * sessions/end-others and sessions/end. No password and no e-mail: ending sessions only
 * protects the account. Ending declares 'ends-sessions', so this instance refuses the ended
 * tokens from the next request on; the others learn it from ended_sessions' notification.
 */
export function sessionsRoutes(router: Router<AppState>): void {
  bind(router, routes.sessions, async ({ user, ctx }) => listSessions(ctx.state.em, useOf(ctx, user)));

  bind(router, routes.endOtherSessions, async ({ user, ctx }) => endOtherSessions(ctx.state.em, user), { effects: ['ends-sessions'] });

  bind(router, routes.endSession, async ({ body, user, ctx }) => endSession(ctx.state.em, user, body.sessionId), { effects: ['ends-sessions'] });
}
