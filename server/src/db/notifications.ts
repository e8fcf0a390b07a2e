import pg from 'pg';
import type { Logger } from '../logger';

/**
 * PostgreSQL LISTEN/NOTIFY on one dedicated connection: how one server instance tells the others
 * that cached data changed. A NOTIFY sent inside a transaction is delivered only if it commits.
 * While the connection is down, `connected` is false and caches must not be trusted.
 */
export class DatabaseNotifications {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<() => void>>();
  private closed = false;
  connected = false;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => this.handlers.get(message.channel)?.forEach((handler) => handler()));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN "${channel}"`);
    this.client = client;
    this.connected = true;
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
    await this.client?.end().catch(() => {});
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.connected = false;
    // Whatever was cached may be stale now: tell every listener, then reconnect.
    this.handlers.forEach((set) => set.forEach((handler) => handler()));
    this.logger.warn('database notifications: connection lost, reconnecting', error);
    setTimeout(() => {
      if (!this.closed) this.start().catch((e: unknown) => this.lost(client, e instanceof Error ? e : undefined));
    }, 1000).unref();
  }
}
