import type { Middleware } from 'koa';
import { routes, type LoginAnswer } from '@everest/core/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { cacheTable } from '../../caches';
import type { Config } from '../../config';
import type { NotifiedCache } from '../../db/notified-cache';
import { HttpError } from '../../http/errors';
import type { AppState, SessionUser } from '../../http/state';
import { toUserAnswer } from '../users/user-answer';
import { User, type IUser } from '../users/user.entity';
import { DocumentLinkTokens, SessionTokens, type LinkedDocument, type SessionClaims } from './session-token';
import { recordSignIn, type SessionActivity } from './sessions.service';

const tokensByConfig = new WeakMap<Config, SessionTokens>();
const linksByConfig = new WeakMap<Config, DocumentLinkTokens>();

/** The one signer/verifier of session tokens for a configuration. */
export function sessionTokens(config: Config): SessionTokens {
  let tokens = tokensByConfig.get(config);
  if (!tokens) {
    tokens = new SessionTokens(config.jwtSecret);
    tokensByConfig.set(config, tokens);
  }
  return tokens;
}

/** The one signer/verifier of document links for a configuration. */
export function documentLinkTokens(config: Config): DocumentLinkTokens {
  let links = linksByConfig.get(config);
  if (!links) {
    links = new DocumentLinkTokens(config.jwtSecret);
    linksByConfig.set(config, links);
  }
  return links;
}

// Downloads are opened by browser navigation (a new window, a preview frame), which cannot send
// a header: the spec passes the session as `?token=` on its download route, and the
// version download takes it the same way. There the token may also be a document link,
// which opens the one document or version it names.
const pathPattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z0-9_]+/g, '([^/]+)')}$`);
const downloadPath = pathPattern(routes.download.path);
const downloadVersionPath = pathPattern(routes.downloadVersion.path);

/** The token of an Authorization header (`Bearer …`), the one way a session comes but on a download's address. */
export function bearerToken(header: string | undefined): string | null {
  const match = header ? /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i.exec(header) : null;
  return match?.[1] ?? null;
}

function pathSegment(match: RegExpExecArray | null): string | null {
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** The document (or version) a download address asks for, as its route parses it; null for any other address. */
function downloadedDocument(ctx: Parameters<Middleware<AppState>>[0]): LinkedDocument | null {
  if (ctx.method !== 'GET') return null;
  const id = pathSegment(downloadPath.exec(ctx.path));
  if (id !== null) {
    const params = routes.download.params.safeParse({ id });
    const query = routes.download.query.safeParse(ctx.query);
    return params.success && query.success ? { type: query.data.type, id: params.data.id } : null;
  }
  const versionId = pathSegment(downloadVersionPath.exec(ctx.path));
  if (versionId === null) return null;
  const params = routes.downloadVersion.params.safeParse({ versionId });
  return params.success ? { type: 'version', id: params.data.versionId } : null;
}

/** The request's token, and whether it came in the address (where only a download reads one). */
function presentedToken(ctx: Parameters<Middleware<AppState>>[0], download: LinkedDocument | null): { token: string; inAddress: boolean } | null {
  const fromHeader = bearerToken(ctx.get('authorization') || undefined);
  if (fromHeader) return { token: fromHeader, inAddress: false };
  if (download) {
    const token = ctx.query.token;
    if (typeof token === 'string' && token !== '') return { token, inAddress: true };
  }
  return null;
}

/** What a session check needs of a user, as kept in memory between requests. */
export interface SessionRecord extends Omit<SessionUser, 'session'> {
  isActive: boolean;
  tokenVersion: number;
  /** Sessions of this user that were signed out of and have not expired yet. */
  endedSessions: string[];
  /** Signs in with a second step; REQUIRE_SECOND_STEP may demand one for the admin routes. */
  hasSecondStep: boolean;
}

/**
 * Session records by user id, dropped whenever the database announces a change to a user's
 * e-mail, role, activity or token version, or a sign-out (migrations 20261122100000 and
 * 20261123200000), so every request does not
 * wait for PostgreSQL. The routes that make such a change declare the 'ends-sessions' effect,
 * so that this server's next request never sees the old record even before the notice arrives.
 */
export type SessionUsers = NotifiedCache<SessionRecord | null>;

/**
 * One statement of plain SQL, not four entity queries: every first request of a user (an
 * investor's first look at the portal) waits for it, and hydrating the whole user entity and
 * writing four queries to PostgreSQL cost more than the rest of the session check.
 */
async function loadSessionRecord(em: EntityManager, id: number): Promise<SessionRecord | null> {
  const [row] = await em.getConnection().execute<
    { id: number; email: string; role: SessionRecord['role']; is_active: boolean; token_version: number; ended_sessions: string[]; has_second_step: boolean }[]
  >(
    `select u.id, u.email, u.role, u.is_active, u.token_version,
            array(select e.session_id from ended_sessions e where e.user_id = u.id and e.expires_at > now()) as ended_sessions,
            exists (select 1 from second_steps s where s.user_id = u.id and s.totp_enabled_at is not null)
              or exists (select 1 from passkeys k where k.user_id = u.id) as has_second_step
       from users u where u.id = ?`,
    [id],
  );
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    isActive: row.is_active,
    tokenVersion: row.token_version,
    endedSessions: row.ended_sessions,
    hasSecondStep: row.has_second_step,
  };
}

/**
 * Whether a role that must sign in with two steps lacks them in this session: from how the
 * session was opened, never from the account's state alone, so that a password-only session does
 * not become a full one when the owner sets up a second step elsewhere.
 */
function secondStepMissing(config: Config, user: SessionRecord, claims: SessionClaims): SessionUser['secondStepMissing'] {
  if (!config.secondStep.requiredRoles.includes(user.role)) return undefined;
  if (!user.hasSecondStep) return 'not-set-up';
  return claims.secondStep ? undefined : 'not-used';
}

/**
 * The session a token's claims grant with its user's record: a session of an active user whose
 * token version has not moved on since the token was issued, not signed out of; null otherwise.
 */
function sessionUserOf(config: Config, user: SessionRecord | null, claims: SessionClaims): SessionUser | null {
  if (!user?.isActive || user.tokenVersion !== claims.tokenVersion || user.endedSessions.includes(claims.sessionId)) return null;
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    session: { id: claims.sessionId, expiresAt: claims.expiresAt, tokenVersion: claims.tokenVersion, secondStep: claims.secondStep },
    secondStepMissing: secondStepMissing(config, user, claims),
  };
}

/**
 * The one session check, for Koa's middleware (sessionAuth) and the answers given below Koa
 * (http/route.ts `hotAnswers`) alike: the same token, record and rule, and the same note of the
 * session's use.
 */
export class SessionCheck {
  private readonly tokens: SessionTokens;

  constructor(
    private readonly config: Config,
    private readonly sessionUsers: SessionUsers,
    private readonly activity?: SessionActivity,
  ) {
    this.tokens = sessionTokens(config);
  }

  /**
   * A session token's session when memory alone decides it (the token verified before and
   * unexpired, its user's record cached): the user, or null for a token that grants nothing.
   * Undefined when the token or the record must be read first (sessionAuth does, by `ofClaims`).
   */
  cached(token: string, now = Date.now()): SessionUser | null | undefined {
    const claims = this.tokens.known(token, now);
    if (!claims) return undefined;
    const user = this.sessionUsers.ready(cacheTable.sessionUsers.key(claims.userId), now);
    return user === undefined ? undefined : sessionUserOf(this.config, user, claims);
  }

  /** The session that verified claims (a session token's or a document link's) grant, reading the user's record where memory lacks it. */
  async ofClaims(em: EntityManager, claims: SessionClaims): Promise<SessionUser | null> {
    const user = await this.sessionUsers.get(cacheTable.sessionUsers.key(claims.userId), () => loadSessionRecord(em, claims.userId));
    return sessionUserOf(this.config, user, claims);
  }

  /** Notes a request of a session token's session in `activity` (the sessions list of Manage Profile), beside the request. */
  seen(user: SessionUser, userAgent: string, clientAddress: string): void {
    void this.activity?.seen({
      sessionId: user.session.id,
      userId: user.id,
      tokenVersion: user.session.tokenVersion,
      expiresAt: user.session.expiresAt,
      userAgent,
      clientAddress,
    });
  }
}

/**
 * Sets ctx.state.user from the request's session token: a genuine, unexpired token of an active
 * user whose token version has not moved on since it was issued, of a session not signed out
 * of; on the download address, also a document link of that very document, which stands for
 * the session that asked for it. Anything else leaves the request anonymous, and the route
 * table's access rule answers 401 where a session is needed. A request with a session token is
 * noted by `check.seen` (the sessions list of Manage Profile), beside the request.
 */
export function sessionAuth(config: Config, check: SessionCheck): Middleware<AppState> {
  const tokens = sessionTokens(config);
  const links = documentLinkTokens(config);
  /** A document link's session, only on the download address of its own document. */
  const linkedSession = async (ctx: Parameters<Middleware<AppState>>[0], token: string, download: LinkedDocument | null): Promise<SessionUser | null> => {
    if (!download) return null;
    const claims = await links.verify(token);
    return claims && claims.document.type === download.type && claims.document.id === download.id ? check.ofClaims(ctx.state.em, claims) : null;
  };
  const signedIn = (ctx: Parameters<Middleware<AppState>>[0], user: SessionUser) => {
    ctx.state.user = user;
    // A document link's expiry is its own, not its session's: only session tokens are noted.
    check.seen(user, ctx.get('user-agent'), ctx.ip);
  };
  const signIn = async (ctx: Parameters<Middleware<AppState>>[0], token: string, sessionAllowed: boolean, download: LinkedDocument | null) => {
    // A genuine session token decides alone: a document link is only looked at for a token that is none.
    const claims = sessionAllowed ? await tokens.verify(token) : null;
    if (claims) {
      const user = await check.ofClaims(ctx.state.em, claims);
      if (user) signedIn(ctx, user);
      return;
    }
    const linked = await linkedSession(ctx, token, download);
    if (linked) ctx.state.user = linked;
  };
  // An anonymous request (most of them: the public site) passes without a promise of its own,
  // and so does a session that memory alone decides (check.cached).
  return (ctx, next) => {
    if (!ctx.path.startsWith('/api/')) return next();
    const download = downloadedDocument(ctx);
    const presented = presentedToken(ctx, download);
    if (!presented) return next();
    // A session token in an address is the spec's download call alone; a version's address (not
    // in the spec) takes only its document link.
    const sessionAllowed = !presented.inAddress || download?.type !== 'version';
    const known = sessionAllowed ? check.cached(presented.token) : undefined;
    if (known !== undefined) {
      if (known) signedIn(ctx, known);
      return next();
    }
    return signIn(ctx, presented.token, sessionAllowed, download).then(() => next());
  };
}

/**
 * The signed-in user's own row, still active. The session check may rest on a cached record
 * that a change made elsewhere has not cleared yet (the database's notice comes a moment
 * later): an account deactivated meanwhile ends the session here with the same 401.
 */
export async function activeSessionUser(em: EntityManager, sessionUser: SessionUser): Promise<IUser> {
  const user = await em.findOne(User, { id: sessionUser.id, isActive: true });
  if (!user) throw new HttpError(401, 'Please sign in to continue.');
  return user;
}

/**
 * Records a completed sign-in (its time, which the administrators' list and the portal show)
 * and issues the session: after the password, or after the password and the second step. The
 * session enters the account's sessions list at once, so that 'Sign out everywhere
 * else' reaches it even before its first request.
 */
export async function startSession(em: EntityManager, config: Config, user: IUser, opened: { secondStep: boolean }): Promise<LoginAnswer> {
  user.previousLoginAt = user.lastLoginAt ?? null;
  user.lastLoginAt = new Date();
  await em.flush();
  const tokens = sessionTokens(config);
  const token = await tokens.issue({ userId: user.id, tokenVersion: user.tokenVersion, secondStep: opened.secondStep });
  const claims = await tokens.verify(token);
  if (!claims) throw new Error('A session token just issued did not verify.');
  await recordSignIn(em, claims, user.lastLoginAt);
  return { token, user: toUserAnswer(user) };
}
