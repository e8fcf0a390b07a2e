import type { DatabaseNotifications } from './notifications';

interface Entry<T> {
  value: Promise<T>;
  /** The value once loaded and kept, for `ready`. */
  loaded?: { value: T };
  bytes: number;
  at: number;
}

export interface NotifiedCacheOptions<T> {
  /** The NOTIFY channel the database triggers raise when the rows behind the cache change. */
  channel: string;
  /** Memory budget: the least recently used answers go first. */
  maxBytes: number;
  /** Roughly how many bytes a value holds, for the budget. */
  sizeOf: (value: T) => number;
  /** Longest an answer is kept even without a change (for what the database cannot see). */
  ttlMs?: number;
}

/**
 * Values read from the database (ready JSON answers, session users) kept in memory and dropped,
 * on every server instance, when the database announces a change on `channel` (see the
 * change-notification triggers in migrations). While the notification connection is down
 * nothing is cached, so nothing stale is ever served.
 */
export class NotifiedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private bytes = 0;
  private generation = 0;

  constructor(
    private readonly notifications: DatabaseNotifications,
    private readonly options: NotifiedCacheOptions<T>,
  ) {}

  async start(): Promise<void> {
    await this.notifications.on(this.options.channel, () => this.clear());
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    this.generation += 1;
  }

  get(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
    if (!this.notifications.connected) return load();
    const hit = this.entries.get(key);
    if (hit && (this.options.ttlMs === undefined || now - hit.at < this.options.ttlMs)) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    if (hit) this.forget(key);

    // A change announced while loading makes this answer stale for the next caller: it is then
    // served to those already waiting, but not kept.
    const generation = this.generation;
    const value = load().then(
      (value) => {
        if (this.generation === generation && this.entries.get(key) === entry) {
          entry.bytes = this.options.sizeOf(value);
          entry.loaded = { value };
          this.bytes += entry.bytes;
          this.evict();
        }
        return value;
      },
      (error: unknown) => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
        throw error;
      },
    );
    // Declared after `value` but read only in its callbacks, which run later.
    const entry: Entry<T> = { value, bytes: 0, at: now };
    this.entries.set(key, entry);
    return value;
  }

  /**
   * The value under `key` when it is loaded and may be served, without a promise (for the
   * busiest calls); undefined when `get` would have to load it or wait for its loading.
   */
  ready(key: string, now = Date.now()): T | undefined {
    if (!this.notifications.connected) return undefined;
    const hit = this.entries.get(key);
    if (!hit?.loaded || (this.options.ttlMs !== undefined && now - hit.at >= this.options.ttlMs)) return undefined;
    // Most recently used from now on (a cache of one entry, the property list's, has no order to keep).
    if (this.entries.size > 1) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit.loaded.value;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.options.maxBytes) return;
      this.forget(key);
    }
  }
}
