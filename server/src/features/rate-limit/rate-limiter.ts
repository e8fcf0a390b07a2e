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
  /** Seconds until the current window ends. */
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

function windowOf(now: number, windowMs: number) {
  const start = now - (now % windowMs);
  return { start: new Date(start), retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
}

/**
 * Fixed-window counters and budgets that grow back, in PostgreSQL, so that every server instance
 * counts the same events. Keys say what is counted, e.g. `login-failure:ip:203.0.113.7` or
 * `contact:ip:…`.
 */
export const rateLimiter = {
  /** Counts one event and answers the count so far in this window. */
  async hit(em: EntityManager, key: string, { windowMs }: RateLimit, now = Date.now()): Promise<RateLimitState> {
    const { start, retryAfterSeconds } = windowOf(now, windowMs);
    const rows: { count: number }[] = await em.getConnection().execute(
      `insert into rate_limit_counters (key, window_start, count) values (?, ?, 1)
       on conflict (key, window_start) do update set count = rate_limit_counters.count + 1
       returning count`,
      [key, start],
    );
    return { count: rows[0]?.count ?? 1, retryAfterSeconds };
  },

  /**
   * Takes back one event that `hit` counted at `now` (the same window), for an attempt that was
   * counted before its outcome was known and turned out not to be one of the events limited.
   */
  async release(em: EntityManager, key: string, { windowMs }: RateLimit, now: number): Promise<void> {
    const { start } = windowOf(now, windowMs);
    await em
      .getConnection()
      .execute('update rate_limit_counters set count = greatest(count - 1, 0) where key = ? and window_start = ?', [key, start]);
  },

  /** The count so far in this window, without counting. */
  async peek(em: EntityManager, key: string, { windowMs }: RateLimit, now = Date.now()): Promise<RateLimitState> {
    const { start, retryAfterSeconds } = windowOf(now, windowMs);
    const rows: { count: number }[] = await em
      .getConnection()
      .execute('select count from rate_limit_counters where key = ? and window_start = ?', [key, start]);
    return { count: rows[0]?.count ?? 0, retryAfterSeconds };
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
   * Forgets windows older than a day (far past the longest window), answering how many; called
   * by housekeeping and now and then by whoever writes counters.
   */
  async prune(em: EntityManager, now = Date.now()): Promise<number> {
    const result = await em
      .getConnection()
      .execute<QueryResult>('delete from rate_limit_counters where window_start < ?', [new Date(now - 86_400_000)], 'run');
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
