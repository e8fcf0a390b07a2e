import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness';
import { TcpGate } from '../../test/tcp-gate';
import { createLogger } from '../logger';
import { NotifiedCache } from './notified-cache';
import { DatabaseNotifications } from './notifications';

const waitLong = { timeout: 10_000, interval: 5 };

describe('a notified cache', () => {
  let database: TestDatabase;
  let gate: TcpGate;
  let notifications: DatabaseNotifications;
  let sql: pg.Client;
  let cache: NotifiedCache<string>;
  let loads = 0;

  // The table has no trigger: the test announces its changes itself, or leaves them unannounced
  // to see whether an answer came from memory.
  const set = (value: string) => sql.query('update cached_values set value = $1', [value]);
  const read = () =>
    cache.get('the value', async () => {
      loads += 1;
      const { rows } = await sql.query<{ value: string }>('select value from cached_values');
      return rows[0]?.value ?? '';
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    await sql.query(`create table cached_values (value text not null); insert into cached_values values ('a')`);
    gate = await TcpGate.start(database.url);
    notifications = new DatabaseNotifications(gate.url(database.url), createLogger('silent'), { retryDelayMs: () => 5 });
    await notifications.start();
    cache = new NotifiedCache(notifications, { channel: 'cached_values_changed', maxBytes: 1000, sizeOf: (v) => v.length });
    await cache.start();
  });
  afterAll(async () => {
    await notifications.close();
    await gate.close();
    await sql.end();
    await database.drop();
  });

  it('is bypassed and emptied while the notifications are down, and caches again once they are back', async () => {
    expect(await read()).toBe('a');
    await set('b');
    expect(await read()).toBe('a');

    // The database restarts and stays down for several reconnect attempts.
    gate.mode = 'refuse';
    gate.cut();
    await vi.waitFor(() => expect(gate.refused).toBeGreaterThanOrEqual(3), waitLong);
    expect(notifications.connected).toBe(false);
    expect(await read()).toBe('b');
    // A change nobody can announce now is still seen: nothing is kept while down.
    await set('c');
    const loadsWhileDown = loads;
    expect(await read()).toBe('c');
    expect(await read()).toBe('c');
    expect(loads).toBe(loadsWhileDown + 2);

    gate.mode = 'pass';
    await vi.waitFor(() => expect(notifications.connected).toBe(true), waitLong);
    expect(await read()).toBe('c');
    await set('d');
    expect(await read()).toBe('c');
    await sql.query(`notify cached_values_changed`);
    await vi.waitFor(async () => expect(await read()).toBe('d'), waitLong);
  });

  it('gives a loaded value at once, and nothing while it loads, after a change or past its lifetime', async () => {
    const timed = new NotifiedCache<string>(notifications, { channel: 'cached_values_changed', maxBytes: 1000, sizeOf: (v) => v.length, ttlMs: 1000 });
    await timed.start();
    expect(timed.ready('k')).toBeUndefined();
    let finish: (value: string) => void = () => {};
    const loading = timed.get('k', () => new Promise<string>((resolve) => (finish = resolve)), 0);
    // Still loading: a caller must wait with `get`.
    expect(timed.ready('k', 0)).toBeUndefined();
    finish('x');
    expect(await loading).toBe('x');
    expect(timed.ready('k', 999)).toBe('x');
    expect(timed.ready('k', 1000)).toBeUndefined();

    expect(await timed.get('j', async () => 'y')).toBe('y');
    expect(timed.ready('j')).toBe('y');
    await sql.query(`notify cached_values_changed`);
    await vi.waitFor(() => expect(timed.ready('j')).toBeUndefined(), waitLong);
  });
});
