import type { QueryResult } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import type { FileStore } from '../files/file-store';
import { sweepUnreferencedFiles } from '../files/unreferenced-files';
import { rateLimiter } from '../rate-limit/rate-limiter';

/** What one round removed. */
export interface HousekeepingReport {
  rateLimitCounters: number;
  /** Budgets that grew back full: as good as no row. */
  rateLimitBudgets: number;
  /** Password-reset and set-password links that were used or have expired. */
  resetTokens: number;
  captchaSolutions: number;
  endedSessions: number;
  /** Rows of the signed-in sessions list whose tokens have expired. */
  sessions: number;
  /** Stored files (and their rows) that no document or photo names any more. */
  storedFiles: number;
  /** Uploads of this instance cut off by a crash, left in its temp folder. */
  tempFiles: number;
}

/**
 * One advisory lock key for the whole database: whichever instance holds it does the round; the
 * others skip theirs. (A constant, the bytes of 'everest-housekeeping' folded into a bigint.)
 */
export const housekeepingLockKey = 7_204_851_127_650_417_001n;

/** An hour: far longer than an upload takes between keeping its file and committing its row. */
export const unreferencedFileAgeMs = 60 * 60_000;
/** Node ends any request after 5 minutes, so a temp file untouched for 10 belongs to a dead request. */
export const tempFileAgeMs = 10 * 60_000;

/**
 * Removes what has expired. Each delete says in its own WHERE what is expired, so that running
 * it twice, or on two instances at once, removes nothing more; the lock only spares the second
 * instance the work (and the bucket the second listing).
 */
export async function pruneExpired(em: EntityManager, files: FileStore, now = Date.now()): Promise<HousekeepingReport> {
  const at = new Date(now);
  const deleted = async (sql: string, params: unknown[]) => (await em.execute<QueryResult>(sql, params, 'run')).affectedRows;

  const counters = await rateLimiter.prune(em, now);
  const budgets = await rateLimiter.pruneBudgets(em, now);
  const resetTokens = await deleted('delete from password_reset_tokens where used_at is not null or expires_at < ?', [at]);
  const captchaSolutions = await deleted('delete from captcha_solutions where expires_at < ?', [at]);
  const endedSessions = await deleted('delete from ended_sessions where expires_at < ?', [at]);
  const sessions = await deleted('delete from sessions where expires_at < ?', [at]);
  const swept = await sweepUnreferencedFiles(em, files, unreferencedFileAgeMs, now);
  const tempFiles = await files.sweepTemp(tempFileAgeMs, now);
  return { rateLimitCounters: counters, rateLimitBudgets: budgets, resetTokens, captchaSolutions, endedSessions, sessions, storedFiles: swept.files, tempFiles };
}

/**
 * Runs `pruneExpired` once if no other instance is running it: the advisory lock belongs to a
 * transaction held open on a connection of its own while the work runs on others (the file
 * sweep must not run inside a transaction, whose first refused delete would abort it). The lock
 * goes with the transaction, even when the process dies. Answers null when another instance
 * holds it.
 */
export async function runHousekeepingOnce(orm: MikroORM, files: FileStore, now = Date.now()): Promise<HousekeepingReport | null> {
  return orm.em.fork().transactional(async (lock) => {
    const [row] = await lock.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(?) as locked', [housekeepingLockKey.toString()]);
    if (!row?.locked) return null;
    return pruneExpired(orm.em.fork(), files, now);
  });
}

/**
 * One timer per instance. Rounds never overlap on one instance (a slow round delays the next),
 * and the advisory lock keeps two instances from doing the same round at once.
 */
export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly options: { orm: MikroORM; files: FileStore; logger: Logger; intervalMs: number },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    // A pending round is no reason to keep the process alive.
    this.timer.unref();
  }

  /** One round now, unless one is already running here; what went wrong is logged, never thrown. */
  async tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(): Promise<void> {
    const { orm, files, logger } = this.options;
    try {
      const report = await runHousekeepingOnce(orm, files);
      if (!report) return;
      const removed = Object.entries(report).filter(([, n]) => n > 0);
      if (removed.length > 0) logger.info(`Housekeeping removed ${removed.map(([what, n]) => `${n} ${what}`).join(', ')}.`);
    } catch (error) {
      // The database or the bucket is away for a moment: the next round tries again.
      logger.warn('Housekeeping failed; it runs again at its next interval.', error);
    }
  }

  /** Stops the timer and waits for a round that is running. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
