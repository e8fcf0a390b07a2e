import type { QueryResult } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { HttpError } from '../../http/errors';

export interface RateLimit {
  /** How many events a key may have in one window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitState {
  count: number;
  /** Seconds until the oldest event counted leaves the window. */
  retryAfterSeconds: number;
}

/** A budget of `burst` events that grows back by one every `refillMs` (see `rateLimiter.take`). */
export interface Budget {
  burst: number;
  refillMs: number;
}

export interface BudgetState {
  allowed: boolean;
  /** Seconds until the budget has one event again (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Each window is counted in 60 slices. The count of a moment is the sum of the slices that
 * overlap the window ending then, the oldest one whole: it may count a slice's worth of events
 * a little older than the window, never fewer than the window holds. A sliding window: nothing
 * starts afresh on the clock, so no edge of a window lets twice the limit through.
 */
const slicesPerWindow = 60;

function sliceOf(now: number, windowMs: number) {
  const sliceMs = Math.max(1000, Math.floor(windowMs / slicesPerWindow));
  const start = now - (now % sliceMs);
  // The oldest slice that still overlaps the window ending now: the one holding its first moment.
  const first = now - windowMs;
  return { start: new Date(start), since: new Date(first - (first % sliceMs)) };
}

/** Seconds until the oldest counted slice leaves the window: when a refused caller may try again. */
function retryAfter(oldest: Date | string | null, windowMs: number, now: number): number {
  const from = oldest ? new Date(oldest).getTime() : now;
  return Math.max(1, Math.ceil((from + windowMs - now) / 1000));
}

/**
 * Sliding-window counters and budgets that grow back, in PostgreSQL, so that every server
 * instance counts the same events. Keys say what is counted, e.g. `login-failure:ip:203.0.113.7`
 * or `contact:ip:…`; a key is always counted with the same window.
 */
export const rateLimiter = {
  /** Counts one event and answers the count within the window ending now, this one included. */
  async hit(em: EntityManager, key: string, { windowMs }: RateLimit, now = Date.now()): Promise<RateLimitState> {
    const { start, since } = sliceOf(now, windowMs);
    // The statement's snapshot does not see its own insert: this slice's count comes from it.
    const rows: { count: number | string; oldest: Date | null }[] = await em.getConnection().execute(
      `with hit as (
         insert into rate_limit_counters (key, window_start, count) values (?, ?, 1)
         on conflict (key, window_start) do update set count = rate_limit_counters.count + 1
         returning count)
       select (select count from hit) + coalesce(sum(c.count), 0) as count,
              least(min(c.window_start) filter (where c.count > 0), ?::timestamptz) as oldest
         from rate_limit_counters c where c.key = ? and c.window_start >= ? and c.window_start <> ?`,
      [key, start, start, key, since, start],
    );
    const row = rows[0];
    return { count: Number(row?.count ?? 1), retryAfterSeconds: retryAfter(row?.oldest ?? start, windowMs, now) };
  },

  /**
   * Takes back one event that `hit` counted at `now` (the same slice), for an attempt that was
   * counted before its outcome was known and turned out not to be one of the events limited.
   */
  async release(em: EntityManager, key: string, { windowMs }: RateLimit, now: number): Promise<void> {
    const { start } = sliceOf(now, windowMs);
    await em
      .getConnection()
      .execute('update rate_limit_counters set count = greatest(count - 1, 0) where key = ? and window_start = ?', [key, start]);
  },

  /** The count within the window ending now, without counting. */
  async peek(em: EntityManager, key: string, { windowMs }: RateLimit, now = Date.now()): Promise<RateLimitState> {
    const { since } = sliceOf(now, windowMs);
    const rows: { count: number | string | null; oldest: Date | null }[] = await em
      .getConnection()
      .execute(
        'select sum(count) as count, min(window_start) filter (where count > 0) as oldest from rate_limit_counters where key = ? and window_start >= ?',
        [key, since],
      );
    return { count: Number(rows[0]?.count ?? 0), retryAfterSeconds: retryAfter(rows[0]?.oldest ?? null, windowMs, now) };
  },

  /** Counts one event and refuses with 429 once the key is over its limit. */
  async consume(em: EntityManager, key: string, limit: RateLimit, message: string, now = Date.now()): Promise<void> {
    const state = await rateLimiter.hit(em, key, limit, now);
    if (state.count > limit.limit) throw tooManyRequests(message, state.retryAfterSeconds);
  },

  /**
   * Spends one event of a key's budget, if it has one: a generic cell rate algorithm in one
   * statement, so two instances never both spend the last event. Each event moves the moment the
   * budget is full again (`full_at`) one refill later; an event is allowed while that moment is
   * at most `burst` refills away. A refused event spends nothing.
   */
  async take(em: EntityManager, key: string, { burst, refillMs }: Budget, now = Date.now()): Promise<BudgetState> {
    const at = new Date(now);
    const ceiling = new Date(now + burst * refillMs);
    const rows: { full_at: Date }[] = await em.getConnection().execute(
      `insert into rate_limit_budgets as b (key, full_at) values (?, ?)
       on conflict (key) do update set full_at = greatest(b.full_at, ?) + ? * interval '1 millisecond'
         where greatest(b.full_at, ?) + ? * interval '1 millisecond' <= ?
       returning full_at`,
      [key, new Date(now + refillMs), at, refillMs, at, refillMs, ceiling],
    );
    if (rows.length > 0) return { allowed: true, retryAfterSeconds: 0 };
    const [row] = await em.getConnection().execute<{ full_at: Date }[]>('select full_at from rate_limit_budgets where key = ?', [key]);
    const fullAt = row ? new Date(row.full_at).getTime() : now;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((fullAt + refillMs - ceiling.getTime()) / 1000)) };
  },

  /**
   * Gives back one event `take` spent, for an attempt that turned out not to be one of the events
   * limited: a budget full again loses its row (a right password leaves nothing behind).
   */
  async giveBack(em: EntityManager, key: string, { refillMs }: Budget, now = Date.now()): Promise<void> {
    const connection = em.getConnection();
    await connection.execute('delete from rate_limit_budgets where key = ? and full_at <= ?', [key, new Date(now + refillMs)]);
    await connection.execute(`update rate_limit_budgets set full_at = full_at - ? * interval '1 millisecond' where key = ?`, [refillMs, key]);
  },

  /**
   * Forgets slices older than two days (past the longest window, a day), answering how many;
   * called by housekeeping and now and then by whoever writes counters.
   */
  async prune(em: EntityManager, now = Date.now()): Promise<number> {
    const result = await em
      .getConnection()
      .execute<QueryResult>('delete from rate_limit_counters where window_start < ?', [new Date(now - 2 * 86_400_000)], 'run');
    return result.affectedRows;
  },

  /** Forgets budgets that are full again (as good as no row), answering how many. */
  async pruneBudgets(em: EntityManager, now = Date.now()): Promise<number> {
    const result = await em.getConnection().execute<QueryResult>('delete from rate_limit_budgets where full_at < ?', [new Date(now)], 'run');
    return result.affectedRows;
  },
};

/** A 429 whose sentence says when to try again, with the matching Retry-After header. */
export function tooManyRequests(message: string, retryAfterSeconds: number): HttpError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const when = retryAfterSeconds < 60 ? `${retryAfterSeconds} seconds` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return new HttpError(429, `${message} Please try again in ${when}.`, { 'Retry-After': String(retryAfterSeconds) });
}
