import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginAnswer, signInCheckAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { awayFromRateLimitWindowEnd } from '../../../test/rate-limit-window';
import { altchaToken } from '../../../test/altcha';
import { queuedMails } from '../../../test/queued-mails';
import { User } from '../users/user.entity';
import { accountGuessedSubject as guessedSubject } from './auth-mail';
import { hashPassword } from './password-hash';
import { accountFailureLimit, addressFailureBudget, pairFailureLimit, signInCheckNeeded } from './login-attempts';
import { freshAddress, recordingClient } from '../../../test/test-client';

// Tests here count up to a rate limit: none may run across the end of a window.
beforeEach(awayFromRateLimitWindowEnd);

describe('POST /api/investor/login', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const login = (email: string, password: string, from = freshAddress()) =>
    client.call('/api/investor/login', { body: { email, password }, from });

  beforeAll(async () => {
    // Trusting X-Forwarded-For lets each test sign in from an address of its own.
    // ALTCHA_COMPLEXITY: cheap proofs of work, since this file solves several.
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true', ALTCHA_COMPLEXITY: '100' } });
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
    // Warm both paths once, then compare the fastest of a few tries: the machine's other work
    // only ever adds time, so each path's minimum is its own cost (a median moved with the load
    // and failed this test by chance on a busy machine).
    await time('nobody@example.com');
    await time('employee@example.com');
    const unknown: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      unknown.push(await time(`nobody${i}@example.com`));
      known.push(await time('employee@example.com'));
    }
    // Both verify an argon2 hash (tens of milliseconds); without the dummy hash the unknown
    // address would answer in a few milliseconds.
    expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.5);
  });

  /** Moves an account's failure counters into the past, as the end of their window does. */
  const endWindow = (email: string) =>
    server.services.orm.em
      .fork()
      .getConnection()
      .execute(`update rate_limit_counters set window_start = window_start - interval '1 day' where key like ?`, [`login-failure:%${email}%`]);
  const noticesTo = async (email: string) =>
    (await queuedMails(server.services.orm.em.fork(), { recipient: email })).filter((mail) => mail.subject === guessedSubject);
  /** A sign-in with the proof of work a client solves when asked (captchaRequired). */
  const loginWithCheck = async (email: string, password: string, from = freshAddress()) =>
    client.call('/api/investor/login', { body: { email, password, captcha: await altchaToken(server.api) }, from });

  it('never refuses the owner’s right password from a fresh address, however many strangers guessed: it asks for the check instead', async () => {
    const email = 'investor2@example.com';
    // Each guess from an address of its own: only the account's own count sees them all.
    for (let i = 0; i < accountFailureLimit.limit; i += 1) expect((await login(email, `Wrong@${i}aaa`)).status).toBe(401);
    const asked = await login(email, 'Everest@2025');
    expect(asked.status).toBe(429);
    expect(signInCheckAnswer.parse(asked.json)).toEqual({ error: signInCheckNeeded, captchaRequired: true });
    expect(asked.headers.get('retry-after')).toBeNull();
    // A wrong password with the check is still just wrong, and a spent check does not pass twice.
    const token = await altchaToken(server.api);
    expect((await client.call('/api/investor/login', { body: { email, password: 'Wrong@x1aaa', captcha: token }, from: freshAddress() })).status).toBe(401);
    const replayed = await client.call('/api/investor/login', { body: { email, password: 'Everest@2025', captcha: token }, from: freshAddress() });
    expect(replayed.status).toBe(400);
    const signedIn = await loginWithCheck(email, 'Everest@2025');
    expect(signedIn.status, signedIn.text).toBe(200);
    loginAnswer.parse(signedIn.json);
  });

  it('tells the owner by e-mail once while their account is being guessed, not once per guess', async () => {
    const email = 'guessed.owner@example.com';
    const em = server.services.orm.em.fork();
    em.create(User, { email, passwordHash: await hashPassword('Everest@2025'), firstName: 'Guessed', lastName: 'Owner' });
    await em.flush();
    expect(await noticesTo(email)).toHaveLength(0);
    for (let i = 0; i < accountFailureLimit.limit - 1; i += 1) await login(email, `Wrong@${i}aaa`);
    expect(await noticesTo(email)).toHaveLength(0);
    await login(email, 'Wrong@lastaaa');
    for (let i = 0; i < 5; i += 1) await loginWithCheck(email, `Wrong@${i}bbb`);
    const notices = await noticesTo(email);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toMatch(/sign-ins to your investor portal account have just failed/);
    expect(notices[0]?.text).not.toContain('Wrong@');
    // Guessing an address that has no account e-mails nobody.
    for (let i = 0; i < accountFailureLimit.limit + 1; i += 1) await login('nobody-guessed@example.com', `Wrong@${i}aaa`);
    expect(await queuedMails(server.services.orm.em.fork(), { recipient: 'nobody-guessed@example.com' })).toHaveLength(0);
    await endWindow(email);
  });

  it('refuses an account from one address after 10 failures there, saying when to try again, while another address signs in', async () => {
    const email = 'john.smith@example.com';
    const from = freshAddress();
    for (let i = 0; i < pairFailureLimit.limit; i += 1) expect((await login(email, `Wrong@${i}aaa`, from)).status).toBe(401);
    const locked = await login(email, 'Everest@2025', from);
    expect(locked.status).toBe(429);
    expect(locked.json).toEqual({
      error: expect.stringMatching(/^Too many failed sign-in attempts\. Please try again in \d+ (minutes?|seconds)\.$/),
    });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    const elsewhere = await loginWithCheck(email, 'Everest@2025');
    expect(elsewhere.status, elsewhere.text).toBe(200);
    await endWindow(email);
  });

  it('gives a client address a budget of failures that grows back a little each minute, not a lock of 15 minutes', async () => {
    const from = freshAddress();
    for (let i = 0; i < addressFailureBudget.burst; i += 1) {
      expect((await login(`guess${i}@example.com`, 'Everest@2025', from)).status).toBe(401);
    }
    const spent = await login('employee@example.com', 'Everest@2025', from);
    expect(spent.status).toBe(429);
    const retryAfter = Number(spent.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(addressFailureBudget.refillMs / 1000);
    // Another address is not affected.
    expect((await login('employee@example.com', 'Everest@2025')).status).toBe(200);
    // A minute later the address has one attempt more: a right password goes through.
    await server.services.orm.em
      .fork()
      .getConnection()
      .execute(`update rate_limit_budgets set full_at = full_at - interval '61 seconds' where key = ?`, [`login-failure:ip:${from}`]);
    expect((await login('employee@example.com', 'Everest@2025', from)).status).toBe(200);
  });

  it('lets at most 10 of 100 concurrent guesses at one account check a password without the check, and the owner still signs in', async () => {
    const email = 'margaret.chen@example.com';
    // Each from an address of its own: only the account's own count can stop them.
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => login(email, `Wrong@${i}aaa`)));
    const refusedAsWrong = answers.filter((res) => res.status === 401);
    expect(refusedAsWrong.length).toBeGreaterThan(0);
    expect(refusedAsWrong.length).toBeLessThanOrEqual(accountFailureLimit.limit);
    for (const res of refusedAsWrong) expect(res.json).toEqual({ error: 'Invalid email or password.' });
    const asked = answers.filter((res) => res.status === 429);
    expect(asked).toHaveLength(100 - refusedAsWrong.length);
    for (const res of asked) expect(signInCheckAnswer.parse(res.json).captchaRequired).toBe(true);

    expect((await loginWithCheck(email, 'Everest@2025')).status).toBe(200);
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

  it('counts a failure of the longest e-mail from the longest address without a fault', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    const res = await login(email, 'Wrong@1aaa', `2001:db8:${'ffff:'.repeat(5)}ffff`.padEnd(200, 'x'));
    expect(res.status, res.text).toBe(401);
  });

  it('answers 400 with a sentence for a missing e-mail or password', async () => {
    const res = await client.call('/api/investor/login', { body: { email: '', password: '' } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.stringContaining('Please enter your email address') });
  });
});
