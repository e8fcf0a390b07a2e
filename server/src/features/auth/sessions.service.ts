import { randomBytes } from 'node:crypto';
import type { QueryResult } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { EndSessionsAnswer, SessionsAnswer } from '@everest/core/contract';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import type { Logger } from '../../logger';
import { deviceName } from './sessions-device';

// The account's signed-in sessions. A row names a session its token already grants;
// ending one writes ended_sessions, which the session check refuses on every instance (its
// trigger notifies them, and the routes' 'ends-sessions' effect clears this one at once).

/** One request of a signed-in session, as the sessions table records it. */
export interface SessionUse {
  sessionId: string;
  userId: number;
  tokenVersion: number;
  expiresAt: Date;
  userAgent: string | undefined;
  clientAddress: string;
  at: Date;
}

/** A new random name for a session in the list: 22 characters, as the contract's `sessionPublicId`. */
const newPublicId = () => randomBytes(16).toString('base64url');

/** '::ffff:203.0.113.9' (an IPv4 client of a dual-stack socket) reads as '203.0.113.9'. */
const readableAddress = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').slice(0, 64);

/**
 * Writes a use of a session: its row the first time (first seen now), else its last use, device
 * and address (those of its latest use: where it is now is what its owner needs to know).
 */
export function recordSessionUse(em: EntityManager, use: SessionUse): Promise<void> {
  return recordSessionUses(em, [use]);
}

/** recordSessionUse for many sessions (each at most once) in one statement. */
async function recordSessionUses(em: EntityManager, uses: readonly SessionUse[]): Promise<void> {
  const rows = uses.map((use) => ({
    session_id: use.sessionId,
    public_id: newPublicId(),
    user_id: use.userId,
    token_version: use.tokenVersion,
    device: deviceName(use.userAgent),
    client_address: readableAddress(use.clientAddress),
    at: use.at.toISOString(),
    expires_at: use.expiresAt.toISOString(),
  }));
  await em.execute(
    `insert into sessions (session_id, public_id, user_id, token_version, device, client_address, first_seen_at, last_used_at, expires_at)
     select session_id, public_id, user_id, token_version, device, client_address, at, at, expires_at
       from jsonb_to_recordset(?::jsonb) as u (session_id text, public_id text, user_id int, token_version int, device text,
                                              client_address text, at timestamptz, expires_at timestamptz)
     on conflict (session_id) do update set
       device = excluded.device,
       client_address = excluded.client_address,
       last_used_at = greatest(sessions.last_used_at, excluded.last_used_at)`,
    [JSON.stringify(rows)],
    'run',
  );
}

/**
 * A session from its sign-in (startSession): its row before its first request, so that 'Sign
 * out everywhere else' ends a session that has not been used yet as well. Device and address
 * come with that first request.
 */
export function recordSignIn(em: EntityManager, session: { sessionId: string; userId: number; tokenVersion: number; expiresAt: Date }, at = new Date()): Promise<void> {
  return em
    .execute(
      `insert into sessions (session_id, public_id, user_id, token_version, first_seen_at, last_used_at, expires_at)
       values (?, ?, ?, ?, ?, ?, ?) on conflict (session_id) do nothing`,
      [session.sessionId, newPublicId(), session.userId, session.tokenVersion, at, at, session.expiresAt],
      'run',
    )
    .then(() => undefined);
}

/** How often a session's last use is written: the list shows it to the minute. */
export const sessionUseIntervalMs = 60_000;
// Notes of recent writes kept in memory; past this many the oldest go (their next use writes again).
const maxNotes = 50_000;

/**
 * The session check's record of session uses: a session's first request on this instance, then
 * at most one write a minute per session, noted in memory so that the requests in between never
 * touch PostgreSQL. A write runs beside the request and never holds it up nor fails it: a failure
 * is logged and the next request tries again. A use noted while a write is under way waits for
 * it and goes with the others noted meanwhile, in one statement: on a morning of first sign-ins
 * each statement cost the main thread more than the session check itself, and an idle server
 * still writes at once.
 */
export class SessionActivity {
  private readonly written = new Map<string, number>();
  private writing: Promise<void> | null = null;
  /** The uses noted since the write under way began, and the write that will take them. */
  private next: { uses: Map<string, SessionUse>; written: Promise<void> } | null = null;

  constructor(
    private readonly options: { orm: MikroORM; logger: Logger; now?: () => number },
  ) {}

  /** Notes a use; answers the write that takes it (tests wait for it), or null when it was not due. */
  seen(use: Omit<SessionUse, 'at'>): Promise<void> | null {
    const now = (this.options.now ?? Date.now)();
    const last = this.written.get(use.sessionId);
    if (last !== undefined && now - last < sessionUseIntervalMs) return null;
    // Noted before the write, so that the requests arriving meanwhile do not write it again.
    this.written.delete(use.sessionId);
    this.written.set(use.sessionId, now);
    if (this.written.size > maxNotes) this.written.delete(this.written.keys().next().value as string);
    const noted = { ...use, at: new Date(now) };
    if (!this.writing) return this.write(new Map([[use.sessionId, noted]]));
    if (!this.next) {
      const uses = new Map<string, SessionUse>();
      this.next = { uses, written: this.writing.then(() => this.write(uses, true)) };
    }
    this.next.uses.set(use.sessionId, noted);
    return this.next.written;
  }

  private write(uses: Map<string, SessionUse>, queued = false): Promise<void> {
    if (queued) this.next = null;
    const finished: Promise<void> = this.record([...uses.values()]).finally(() => {
      if (this.writing === finished) this.writing = null;
    });
    this.writing = finished;
    return finished;
  }

  private async record(uses: SessionUse[]): Promise<void> {
    try {
      await recordSessionUses(this.options.orm.em.fork(), uses);
      return;
    } catch (error) {
      if (uses.length === 1) return this.failed(uses[0]!, error);
    }
    // One use that cannot be written (its account just removed) must not lose the others.
    await Promise.all(uses.map((use) => recordSessionUses(this.options.orm.em.fork(), [use]).catch((error: unknown) => this.failed(use, error))));
  }

  private failed(use: SessionUse, error: unknown): void {
    if (this.written.get(use.sessionId) === use.at.getTime()) this.written.delete(use.sessionId);
    this.options.logger.warn('A session use could not be recorded; its next request tries again.', error);
  }
}

/** The live sessions of a user: not ended, not expired, not of a token version the user has moved past. */
const liveSessions = `
  from sessions s join users u on u.id = s.user_id
  where s.user_id = ? and s.expires_at > ? and s.token_version = u.token_version
    and not exists (select 1 from ended_sessions e where e.session_id = s.session_id)`;

/** The caller's live sessions, the most recently used first; this request's own is recorded first and marked current. */
export async function listSessions(em: EntityManager, current: SessionUse): Promise<SessionsAnswer> {
  await recordSessionUse(em, current);
  const rows = await em.execute<
    { public_id: string; device: string; client_address: string; first_seen_ms: string; last_used_ms: string; current: boolean }[]
  >(
    `select s.public_id, s.device, s.client_address, s.session_id = ? as current,
       extract(epoch from s.first_seen_at) * 1000 as first_seen_ms, extract(epoch from s.last_used_at) * 1000 as last_used_ms
     ${liveSessions}
     order by s.session_id = ? desc, s.last_used_at desc, s.first_seen_at desc, s.public_id`,
    [current.sessionId, current.userId, current.at, current.sessionId],
  );
  return {
    sessions: rows.map((row) => ({
      id: row.public_id,
      device: row.device || 'Unknown device',
      address: row.client_address,
      firstSeenAt: new Date(Number(row.first_seen_ms)).toISOString(),
      lastUsedAt: new Date(Number(row.last_used_ms)).toISOString(),
      current: row.current,
    })),
  };
}

/** Ends the caller's live sessions chosen by `which` (SQL on `s`), this request's own never; answers how many. */
async function endSessions(em: EntityManager, user: SessionUser, which: string, params: unknown[], now: Date): Promise<number> {
  const result = await em.execute<QueryResult>(
    `insert into ended_sessions (session_id, user_id, expires_at)
     select s.session_id, s.user_id, s.expires_at ${liveSessions} and s.session_id <> ? ${which}
     on conflict (session_id) do nothing`,
    [user.id, now, user.session.id, ...params],
    'run',
  );
  return result.affectedRows;
}

const signedOutOf = (count: number) =>
  count === 0 ? 'No other session was signed in.' : `Signed out of ${count} other ${count === 1 ? 'session' : 'sessions'}.`;

/** 'Sign out everywhere else': every live session of the caller but this one, at once. */
export async function endOtherSessions(em: EntityManager, user: SessionUser, now = new Date()): Promise<EndSessionsAnswer> {
  const endedCount = await endSessions(em, user, '', [], now);
  return { message: signedOutOf(endedCount), endedCount };
}

/** Ends one other session of the caller; 404 for any id that is not one of theirs, live and other. */
export async function endSession(em: EntityManager, user: SessionUser, publicId: string, now = new Date()): Promise<EndSessionsAnswer> {
  const endedCount = await endSessions(em, user, 'and s.public_id = ?', [publicId], now);
  if (endedCount === 0) {
    const own = await em.execute<{ n: number }[]>('select 1 as n from sessions where session_id = ? and public_id = ?', [user.session.id, publicId]);
    if (own.length > 0) throw new HttpError(400, 'This is the session you are using: sign out to end it.');
    throw new HttpError(404, 'That session was not found. It may have ended already.');
  }
  return { message: 'That session has been signed out.', endedCount };
}
