import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors';
import { startTestServer, type TestServer } from '../../../test/harness';
import { rateLimitWindowGridMs } from '../../../test/rate-limit-window';
import { emailChangeRequestLimit } from '../users/email-change.service';
import { resetRequestLimitPerAddress, resetRequestLimitPerEmail } from '../auth/auth.service';
import { setPasswordFailureLimit } from '../auth/password-links';
import { accountFailureLimit, guessedNoticeLimit, pairFailureLimit, proofFailureLimit } from '../auth/login-attempts';
import { captchaChallengeLimit } from '../captcha/captcha.routes';
import { contactRateLimit } from '../contact/contact.service';
import { shareCreateLimit } from '../shares/shares.service';
import { rateLimiter } from './rate-limiter';

describe('rate limiter', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const limit = { limit: 3, windowMs: 60_000 };
  const now = Date.UTC(2026, 0, 1, 12, 0, 30);

  it('counts per key and window, as every instance sees it', async () => {
    const em = server.services.orm.em.fork();
    expect((await rateLimiter.hit(em, 'a', limit, now)).count).toBe(1);
    // A second entity manager stands for a second server instance.
    expect((await rateLimiter.hit(server.services.orm.em.fork(), 'a', limit, now)).count).toBe(2);
    expect((await rateLimiter.peek(em, 'a', limit, now)).count).toBe(2);
    expect((await rateLimiter.peek(em, 'b', limit, now)).count).toBe(0);
    // The window slides: still counted 59 s later, gone once a whole window (and its slice) has passed.
    expect((await rateLimiter.peek(em, 'a', limit, now + 59_000)).count).toBe(2);
    expect((await rateLimiter.peek(em, 'a', limit, now + 61_000)).count).toBe(0);
  });

  it("lets no window's edge double the limit: events just before a minute mark still count after it", async () => {
    const em = server.services.orm.em.fork();
    const edge = Date.UTC(2026, 0, 1, 12, 0, 59, 500);
    for (let i = 0; i < 3; i++) expect((await rateLimiter.hit(em, 'edge', limit, edge)).count).toBe(i + 1);
    // A fixed window would start afresh at 12:01:00 and count 1 here.
    expect((await rateLimiter.hit(em, 'edge', limit, edge + 1000)).count).toBe(4);
    expect((await rateLimiter.hit(em, 'edge', limit, edge + 30_000)).count).toBe(5);
  });

  it('spends a budget that grows back one event per refill, and refuses past it without spending', async () => {
    const budget = { burst: 3, refillMs: 60_000 };
    const em = server.services.orm.em.fork();
    const take = (at: number) => rateLimiter.take(em, 'budget-a', budget, at);
    for (let i = 0; i < 3; i++) expect((await take(now)).allowed).toBe(true);
    expect(await take(now)).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(await take(now + 30_000)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    // One refill later, one event more; not two.
    expect((await take(now + 60_000)).allowed).toBe(true);
    expect((await take(now + 60_000)).allowed).toBe(false);
    // Given back, the event can be spent again.
    await rateLimiter.giveBack(em, 'budget-a', budget, now + 60_000);
    expect((await take(now + 60_000)).allowed).toBe(true);
    // Long after, the whole budget again.
    for (let i = 0; i < 3; i++) expect((await take(now + 3_600_000)).allowed).toBe(true);
  });

  it('lets exactly the budget through of concurrent events, from two instances', async () => {
    const budget = { burst: 5, refillMs: 60_000 };
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => rateLimiter.take(server.services.orm.em.fork(), 'budget-b', budget, now + (i % 2))),
    );
    expect(answers.filter((a) => a.allowed)).toHaveLength(5);
  });

  it('gives back one event in the window it was counted in, never going below zero', async () => {
    const em = server.services.orm.em.fork();
    await rateLimiter.hit(em, 'd', limit, now);
    await rateLimiter.hit(em, 'd', limit, now);
    await rateLimiter.release(em, 'd', limit, now);
    expect((await rateLimiter.peek(em, 'd', limit, now)).count).toBe(1);
    await rateLimiter.release(em, 'd', limit, now + 61_000);
    expect((await rateLimiter.peek(em, 'd', limit, now)).count).toBe(1);
    await rateLimiter.release(em, 'd', limit, now);
    await rateLimiter.release(em, 'd', limit, now);
    expect((await rateLimiter.peek(em, 'd', limit, now)).count).toBe(0);
  });

  it('refuses with 429, a Retry-After and a sentence saying when, once over the limit', async () => {
    const em = server.services.orm.em.fork();
    for (let i = 0; i < 3; i++) await rateLimiter.consume(em, 'c', limit, 'Too many attempts.', now);
    const refusal = await rateLimiter.consume(em, 'c', limit, 'Too many attempts.', now).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(HttpError);
    expect((refusal as HttpError).status).toBe(429);
    expect((refusal as HttpError).message).toBe('Too many attempts. Please try again in 1 minute.');
    expect((refusal as HttpError).headers['Retry-After']).toBe('60');
  });
});

// What lets the tests that count up to a limit keep clear of a window's end
// (test/rate-limit-window.ts): every window ends on the same 5-minute marks.
it('has every window of the server a whole number of 5 minutes', () => {
  const limits = {
    emailChangeRequestLimit,
    resetRequestLimitPerAddress,
    resetRequestLimitPerEmail,
    setPasswordFailureLimit,
    accountFailureLimit,
    guessedNoticeLimit,
    pairFailureLimit,
    proofFailureLimit,
    captchaChallengeLimit,
    contactRateLimit,
    shareCreateLimit,
  };
  for (const [name, { windowMs }] of Object.entries(limits)) expect(windowMs % rateLimitWindowGridMs, name).toBe(0);
});
