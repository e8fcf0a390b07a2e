import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import type { MailSender } from './mail-sender';
import { renderOutboxMessage } from './outbox';
import { mailLanes, OutboxMessage, type IOutboxMessage, type MailLane } from './outbox-message.entity';
import { OutboxTemplate, type IOutboxTemplate } from './outbox-template.entity';

export interface OutboxWorkerOptions {
  /** How often the outbox is looked at when nobody kicks the worker. */
  pollIntervalMs: number;
  /** Rows claimed (and locked) per transaction. */
  batchSize: number;
  /** The wait after the first failed attempt; it doubles with each further failure… */
  backoffBaseMs: number;
  /** …up to this. */
  backoffMaxMs: number;
  /** After this many failed attempts the row is marked failed, logged, and left for an operator. */
  maxAttempts: number;
}

// 30 s, 1, 2, 4, 8, 16, 32 min, then hourly: ten attempts span about three hours of SMTP outage.
export const defaultOutboxWorkerOptions: OutboxWorkerOptions = {
  pollIntervalMs: 5_000,
  batchSize: 10,
  backoffBaseMs: 30_000,
  backoffMaxMs: 3_600_000,
  maxAttempts: 10,
};

export interface OutboxWorkerDeps {
  orm: MikroORM;
  sender: MailSender;
  /** The From of every e-mail (MAIL_FROM). */
  from: string;
  /** The host part of Message-IDs (that of PUBLIC_URL). */
  messageIdHost: string;
  logger: Logger;
}

/** The wait before attempt `attempts + 1`, after `attempts` failures. */
export function backoffMs(attempts: number, options: Pick<OutboxWorkerOptions, 'backoffBaseMs' | 'backoffMaxMs'>): number {
  return Math.min(options.backoffBaseMs * 2 ** Math.max(0, attempts - 1), options.backoffMaxMs);
}

/** A lane's loop: its own timer, so that a lane being drained never delays the other's. */
interface LaneLoop {
  lane: MailLane;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  kickedWhileRunning: boolean;
}

/**
 * Delivers the outbox: every e-mail is a row written in the transaction of its cause (see
 * `enqueueMail`), so an SMTP outage delays mail and never loses it.
 *
 * Each lane (`mailLanes`) has a loop of its own, which claims only that lane's rows: a password
 * reset goes out at once, on a connection of its own, while a 50,000-message import drains in the
 * bulk lane.
 *
 * Rows are claimed with `SELECT … FOR UPDATE SKIP LOCKED` inside a transaction that lasts while
 * they are sent and marked, so several server instances (or several workers, or lanes) share the
 * outbox without ever sending the same row twice. Delivery is at least once only in one case: a
 * process that dies after SMTP accepted a message but before its transaction committed; the
 * stable Message-ID lets mail clients show such a copy once.
 */
export class OutboxWorker {
  private readonly options: OutboxWorkerOptions;
  private readonly loops: LaneLoop[] = mailLanes.map((lane) => ({ lane, timer: null, running: null, kickedWhileRunning: false }));
  private started = false;
  private stopped = false;

  constructor(
    private readonly deps: OutboxWorkerDeps,
    options: Partial<OutboxWorkerOptions> = {},
  ) {
    this.options = { ...defaultOutboxWorkerOptions, ...options };
  }

  /** Starts polling; the first look is immediate, so mail left by a previous run goes out. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    for (const loop of this.loops) this.schedule(loop, 0);
  }

  /** Looks at the outbox now (after a commit that queued mail); a no-op unless started. */
  kick(): void {
    if (!this.started || this.stopped) return;
    for (const loop of this.loops) {
      if (loop.running) loop.kickedWhileRunning = true;
      else this.schedule(loop, 0);
    }
  }

  /** Stops polling and waits for the messages being sent (not the rest of their batches), so that shutdown never cuts a delivery. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const loop of this.loops) {
      if (loop.timer) clearTimeout(loop.timer);
      loop.timer = null;
    }
    await Promise.all(this.loops.map((loop) => loop.running));
  }

  /**
   * Claims one batch of due rows of `lane` (without one: of every lane, transactional first),
   * sends them and records the outcome; answers how many rows it claimed. Public so that tests
   * (and a future CLI command) can drain the outbox step by step.
   */
  async runOnce(now: () => Date = () => new Date(), lane?: MailLane): Promise<number> {
    const em = this.deps.orm.em.fork();
    return em.transactional(async (tx) => {
      const due: IOutboxMessage[] = [];
      for (const claimed of lane ? [lane] : mailLanes) {
        if (due.length === this.options.batchSize) break;
        due.push(
          ...(await tx.find(
            OutboxMessage,
            { status: 'pending', lane: claimed, nextAttemptAt: { $lte: now() } },
            {
              orderBy: { nextAttemptAt: 'asc', id: 'asc' },
              limit: this.options.batchSize - due.length,
              lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
            },
          )),
        );
      }
      // Batch messages share a template: read each once (not locked; templates never change).
      const templateIds = [...new Set(due.flatMap((row) => (row.template ? [row.template.id] : [])))];
      const templates = new Map(
        templateIds.length > 0 ? (await tx.find(OutboxTemplate, { id: { $in: templateIds } })).map((t) => [t.id, t]) : [],
      );
      for (const row of due) {
        // Shutting down: the message being sent is finished, the rest stay pending for the next run.
        if (this.stopped) break;
        await this.deliver(row, row.template ? (templates.get(row.template.id) ?? null) : null, now);
      }
      return due.length;
    });
  }

  private async deliver(row: IOutboxMessage, template: IOutboxTemplate | null, now: () => Date): Promise<void> {
    try {
      const { text, html } = renderOutboxMessage(row, template);
      await this.deps.sender.send({
        messageId: `<outbox-${row.id}-${row.createdAt.getTime()}@${this.deps.messageIdHost}>`,
        from: this.deps.from,
        to: row.recipient,
        replyTo: row.replyTo ?? null,
        subject: row.subject,
        text,
        html,
      });
      row.status = 'sent';
      row.sentAt = now();
      row.attempts += 1;
      row.lastError = null;
    } catch (error) {
      row.attempts += 1;
      row.lastError = error instanceof Error ? error.message : String(error);
      if (row.attempts >= this.options.maxAttempts) {
        row.status = 'failed';
        this.deps.logger.error(
          `E-mail ${row.id} failed ${row.attempts} times and will not be retried (\`mail:retry\` retries failed e-mail): ${row.lastError}`,
        );
      } else {
        const wait = backoffMs(row.attempts, this.options);
        row.nextAttemptAt = new Date(now().getTime() + wait);
        this.deps.logger.warn(
          `E-mail ${row.id} could not be sent (attempt ${row.attempts}); retrying in ${Math.round(wait / 1000)} s: ${row.lastError}`,
        );
      }
    }
  }

  private schedule(loop: LaneLoop, delayMs: number): void {
    if (this.stopped) return;
    if (loop.timer) clearTimeout(loop.timer);
    loop.timer = setTimeout(() => {
      loop.timer = null;
      loop.running = this.drain(loop.lane).finally(() => {
        loop.running = null;
        const again = loop.kickedWhileRunning;
        loop.kickedWhileRunning = false;
        this.schedule(loop, again ? 0 : this.options.pollIntervalMs);
      });
    }, delayMs);
    // Polling alone never keeps the process alive (tests, CLI commands).
    loop.timer.unref();
  }

  /** Batches of `lane` until it has no due rows left (or the worker is stopped). */
  private async drain(lane: MailLane): Promise<void> {
    try {
      while (!this.stopped && (await this.runOnce(undefined, lane)) === this.options.batchSize) {
        // A full batch: there may be more due rows.
      }
    } catch (error) {
      this.deps.logger.warn(`The mail outbox (${lane} lane) could not be read; trying again at the next poll.`, error);
    }
  }
}
