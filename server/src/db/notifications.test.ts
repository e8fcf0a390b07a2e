import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness';
import { TcpGate } from '../../test/tcp-gate';
import { createLogger } from '../logger';
import { DatabaseNotifications, reconnectDelayMs, type DatabaseNotificationsOptions } from './notifications';

const logger = createLogger('silent');
// A restart is acted out in milliseconds: the states are waited for, never a fixed time.
const waitLong = { timeout: 10_000, interval: 5 };

describe('database notifications', () => {
  let database: TestDatabase;
  let sender: pg.Client;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    sender = new pg.Client({ connectionString: database.url });
    await sender.connect();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    await sender.end();
    await database.drop();
  });

  /** Notifications through a gate of their own, closed (with the gate) after the test. */
  async function gated(options: DatabaseNotificationsOptions = {}) {
    const gate = await TcpGate.start(database.url);
    const notifications = new DatabaseNotifications(gate.url(database.url), logger, options);
    cleanups.push(() => gate.close(), () => notifications.close());
    await notifications.start();
    return { gate, notifications };
  }

  it('waits a second before the first reconnect, doubling up to 30 seconds', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(reconnectDelayMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('keeps reconnecting with growing delays while the database is down, and hears it again', async () => {
    const attempts: number[] = [];
    const { gate, notifications } = await gated({
      retryDelayMs: (attempt) => {
        attempts.push(attempt);
        return 5;
      },
    });
    let heard = 0;
    await notifications.on('test_channel', () => (heard += 1));

    gate.mode = 'refuse';
    gate.cut();
    await vi.waitFor(() => expect(gate.refused).toBeGreaterThanOrEqual(3), waitLong);
    expect(notifications.connected).toBe(false);
    // Listeners are told at once that they may have missed something.
    expect(heard).toBe(1);

    gate.mode = 'pass';
    await vi.waitFor(() => expect(notifications.connected).toBe(true), waitLong);
    expect(attempts.slice(0, 4)).toEqual([0, 1, 2, 3]);

    await sender.query(`select pg_notify('test_channel', '')`);
    await vi.waitFor(() => expect(heard).toBe(2), waitLong);

    // A success resets the delays: the next outage starts again from the shortest.
    attempts.length = 0;
    gate.cut();
    await vi.waitFor(() => expect(attempts.length).toBeGreaterThan(0), waitLong);
    await vi.waitFor(() => expect(notifications.connected).toBe(true), waitLong);
    expect(attempts).toEqual([0]);
  });

  it('ends the connection of every failed attempt, and retries a server that stopped answering', async () => {
    // Long enough for a real connect on a busy machine, short enough to see several stall.
    const { gate, notifications } = await gated({ retryDelayMs: () => 5, connectTimeoutMs: 250 });
    gate.mode = 'stall';
    gate.cut();
    const before = gate.connections;
    await vi.waitFor(() => expect(gate.connections).toBeGreaterThanOrEqual(before + 4), waitLong);
    // One attempt's socket may still be open (it is the one under way), never a pile of them.
    expect(gate.openSockets).toBeLessThanOrEqual(2);

    gate.mode = 'pass';
    await vi.waitFor(() => expect(notifications.connected).toBe(true), waitLong);
    await vi.waitFor(() => expect(gate.openSockets).toBe(1), waitLong);
    await notifications.close();
    await vi.waitFor(() => expect(gate.openSockets).toBe(0), waitLong);
  });

  it('stops retrying once closed', async () => {
    let delaysAsked = 0;
    const closing = await gated({
      retryDelayMs: () => {
        delaysAsked += 1;
        return 5;
      },
    });
    // Another one, failing the same way, is the clock: while it retries, a live one would too.
    const control = await gated({ retryDelayMs: () => 5 });
    for (const { gate } of [closing, control]) {
      gate.mode = 'refuse';
      gate.cut();
    }
    await vi.waitFor(() => expect(closing.gate.refused).toBeGreaterThanOrEqual(2), waitLong);

    await closing.notifications.close();
    const asked = delaysAsked;
    // A connect already on its way when close() came may still reach the gate; let it land.
    let seen = control.gate.connections;
    await vi.waitFor(() => expect(control.gate.connections).toBeGreaterThan(seen), waitLong);
    const attempts = closing.gate.connections;
    seen = control.gate.connections;
    await vi.waitFor(() => expect(control.gate.connections).toBeGreaterThanOrEqual(seen + 3), waitLong);
    expect(closing.gate.connections).toBe(attempts);
    expect(delaysAsked).toBe(asked);
    expect(closing.notifications.connected).toBe(false);
  });
});
