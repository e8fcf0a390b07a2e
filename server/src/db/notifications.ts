import pg from 'pg';
import type { Logger } from '../logger';

export interface DatabaseNotificationsOptions {
  /** Milliseconds to wait before reconnect attempt `attempt` (0 for the first after a loss). */
  retryDelayMs?: (attempt: number) => number;
  /** A connect that has not finished by then counts as failed, so a stalled server is retried. */
  connectTimeoutMs?: number;
}

/** 1 s, doubling up to 30 s: a restart is noticed within seconds, an outage costs little. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(1000 * 2 ** Math.min(attempt, 5), 30_000);
}

/**
 * PostgreSQL LISTEN/NOTIFY on one dedicated connection: how one server instance tells the others
 * that cached data changed. A NOTIFY sent inside a transaction is delivered only if it commits.
 * While the connection is down, `connected` is false and caches must not be trusted; it is
 * retried with growing delays (reset by a success) until `close`.
 */
export class DatabaseNotifications {
  private client: pg.Client | null = null;
  /** The client of a connect under way, so that `close` can end it. */
  private connecting: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private attempt = 0;
  private readonly handlers = new Map<string, Set<() => void>>();
  private readonly retryDelayMs: (attempt: number) => number;
  private readonly connectTimeoutMs: number;
  private closed = false;
  connected = false;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
    options: DatabaseNotificationsOptions = {},
  ) {
    this.retryDelayMs = options.retryDelayMs ?? reconnectDelayMs;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  }

  /** Connects once; a failure here is the caller's (start-up stops), later losses are retried. */
  async start(): Promise<void> {
    await this.connect();
  }

  /** Calls `handler` on every NOTIFY of `channel`, and whenever notifications may have been missed. */
  async on(channel: string, handler: () => void): Promise<void> {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`Bad channel name ${channel}`);
    const set = this.handlers.get(channel) ?? new Set();
    set.add(handler);
    if (!this.handlers.has(channel)) {
      this.handlers.set(channel, set);
      await this.client?.query(`LISTEN "${channel}"`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connected = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    // A connect under way is not waited for: against a server that stopped answering it would
    // hang until its timeout. Once it settles, `connect` sees `closed` and ends its client.
    this.connecting?.end().catch(() => {});
    await this.client?.end().catch(() => {});
    this.client = null;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: this.connectTimeoutMs });
    client.on('notification', (message) => this.handlers.get(message.channel)?.forEach((handler) => handler()));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    this.connecting = client;
    try {
      await client.connect();
      // Map iteration is live: a channel added by `on` meanwhile is listened to here too.
      for (const channel of this.handlers.keys()) await client.query(`LISTEN "${channel}"`);
    } catch (error) {
      // A half-open client would keep its socket (and this object's handlers) forever.
      await client.end().catch(() => {});
      throw error;
    } finally {
      this.connecting = null;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.connected = true;
    this.attempt = 0;
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.connected = false;
    client.end().catch(() => {});
    // Whatever was cached may be stale now: tell every listener, then reconnect.
    this.handlers.forEach((set) => set.forEach((handler) => handler()));
    this.logger.warn('database notifications: connection lost, reconnecting', error);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = this.retryDelayMs(this.attempt);
    this.attempt += 1;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.closed) return;
      this.connect().then(
        () => {
          if (this.connected) this.logger.info('database notifications: reconnected');
        },
        (error: unknown) => {
          if (this.closed) return;
          this.logger.warn('database notifications: reconnect failed, retrying', error);
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.retry.unref();
  }
}
