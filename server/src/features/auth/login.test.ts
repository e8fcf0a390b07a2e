import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { User } from '../users/user.entity';
import { freshAddress, recordingClient } from './test-client';

describe('POST /api/investor/login', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const login = (email: string, password: string, from = freshAddress()) =>
    client.call('/api/investor/login', { body: { email, password }, from });

  beforeAll(async () => {
    // Trusting X-Forwarded-For lets each test sign in from an address of its own.
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true' } });
    client = recordingClient(server);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it.each([
    ['admin@example.com', 'administrator'],
    ['employee@example.com', 'everest_employee'],
    ['investor@example.com', 'user'],
    ['investor2@example.com', 'user'],
  ])('signs in %s as %s and records the sign-in time', async (email, role) => {
    const before = Date.now();
    const res = await login(email, 'Everest@2025');
    expect(res.status, res.text).toBe(200);
    const answer = loginAnswer.parse(res.json);
    expect(answer.user).toMatchObject({ email, role, isActive: true });
    expect(Date.parse(answer.user.lastLoginAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    const stored = await server.services.orm.em.fork().findOneOrFail(User, { email });
    expect(stored.lastLoginAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('ignores the case of the e-mail address', async () => {
    expect((await login('  Investor@Example.COM ', 'Everest@2025')).status).toBe(200);
  });

  it('gives one answer for an unknown address, a wrong password and a deactivated account', async () => {
    await server.services.orm.em.fork().nativeUpdate(User, { email: 'priya.natarajan@example.com' }, { isActive: false });
    const unknown = await login('nobody@example.com', 'Everest@2025');
    const wrong = await login('investor@example.com', 'Everest@2024');
    const deactivated = await login('priya.natarajan@example.com', 'Everest@2025');
    for (const res of [unknown, wrong, deactivated]) {
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: 'Invalid email or password.' });
    }
  });

  it('takes about as long for an unknown address as for a wrong password', async () => {
    const time = async (email: string) => {
      const started = performance.now();
      await login(email, 'Wrong@2025x');
      return performance.now() - started;
    };
    // Warm both paths once, then compare medians of a few tries.
    await time('nobody@example.com');
    await time('employee@example.com');
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const unknown: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      unknown.push(await time(`nobody${i}@example.com`));
      known.push(await time('employee@example.com'));
    }
    // Both verify an argon2 hash (tens of milliseconds); without the dummy hash the unknown
    // address would answer in a few milliseconds.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it('refuses sign-in to an account after 10 failures in 15 minutes, saying when to try again', async () => {
    for (let i = 0; i < 10; i += 1) {
      expect((await login('investor2@example.com', `Wrong@${i}aaa`)).status).toBe(401);
    }
    const locked = await login('investor2@example.com', 'Everest@2025');
    expect(locked.status).toBe(429);
    expect(locked.json).toEqual({
      error: expect.stringMatching(/^Too many failed sign-in attempts\. Please try again in \d+ (minutes?|seconds)\.$/),
    });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses sign-in from a client address after 10 failures, whichever accounts they were for', async () => {
    const from = freshAddress();
    for (let i = 0; i < 10; i += 1) {
      expect((await login(`guess${i}@example.com`, 'Everest@2025', from)).status).toBe(401);
    }
    expect((await login('employee@example.com', 'Everest@2025', from)).status).toBe(429);
    // Another address is not affected.
    expect((await login('employee@example.com', 'Everest@2025')).status).toBe(200);
  });

  /** Moves an account's failure counters into the past, as the end of their window does. */
  const endWindow = (email: string) =>
    server.services.orm.em
      .fork()
      .getConnection()
      .execute(`update rate_limit_counters set window_start = window_start - interval '1 day' where key = ?`, [
        `login-failure:email:${email}`,
      ]);

  it('lets at most 10 of 100 concurrent guesses at one account check a password, then keeps it locked', async () => {
    const email = 'margaret.chen@example.com';
    // Each from an address of its own: only the account's own count can stop them.
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => login(email, `Wrong@${i}aaa`)));
    const refusedAsWrong = answers.filter((res) => res.status === 401);
    expect(refusedAsWrong.length).toBeGreaterThan(0);
    expect(refusedAsWrong.length).toBeLessThanOrEqual(10);
    for (const res of refusedAsWrong) expect(res.json).toEqual({ error: 'Invalid email or password.' });
    expect(answers.filter((res) => res.status === 429)).toHaveLength(100 - refusedAsWrong.length);

    // The right password is refused too, until the window ends.
    const locked = await login(email, 'Everest@2025');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    await endWindow(email);
    expect((await login(email, 'Everest@2025')).status).toBe(200);
  });

  it('never counts a successful sign-in against the account or the address', async () => {
    await endWindow('investor@example.com');
    const from = freshAddress();
    for (let i = 0; i < 15; i += 1) expect((await login('investor@example.com', 'Everest@2025', from)).status).toBe(200);
    for (let i = 0; i < 10; i += 1) expect((await login('investor@example.com', `Wrong@${i}aaa`, from)).status).toBe(401);
    expect((await login('investor@example.com', 'Everest@2025', from)).status).toBe(429);
    await endWindow('investor@example.com');
  });

  it('lets at most 10 of 30 concurrent guesses of the current password be checked', async () => {
    const email = 'robert.alvarez@example.com';
    const token = await client.signIn(email, 'Everest@2025', freshAddress());
    const change = (currentPassword: string) =>
      client.call('/api/investor/change-password', {
        body: { currentPassword, newPassword: 'NewPeak@2026' },
        token,
        from: freshAddress(),
      });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => change(`Wrong@${i}aaa`)));
    const checked = answers.filter((res) => res.status === 400).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(10);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(30 - checked);
    expect((await change('Everest@2025')).status).toBe(429);
  });

  it('answers 400 with a sentence for a missing e-mail or password', async () => {
    const res = await client.call('/api/investor/login', { body: { email: '', password: '' } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.stringContaining('Please enter your email address') });
  });
});
