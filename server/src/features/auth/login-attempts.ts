import type { EntityManager } from '@mikro-orm/postgresql';
import { rateLimiter, tooManyRequests, type RateLimit } from '../rate-limit/rate-limiter';

/**
 * Failed sign-ins per account and per client address: wrong passwords, wrong current passwords
 * and wrong second-step codes all count here, so that a guesser cannot switch between them.
 */
export const loginFailureLimit: RateLimit = { limit: 10, windowMs: 15 * 60_000 };

export const tooManySignInFailures = 'Too many failed sign-in attempts.';

export const failureKeys = (email: string, address: string) => [`login-failure:email:${email}`, `login-failure:ip:${address}`];

/**
 * Counts a password check on every key before it is made, and refuses it with 429 once any key
 * is over the limit: a burst of concurrent guesses cannot all pass a look at the counters, as
 * each one holds its place in the count while argon2 runs. A counted attempt stays counted as a
 * failure unless the caller gives it back with the answered `release` (a correct password is no
 * failure, so signing in never uses up an account's or an office's budget); a refused attempt
 * checked no password and gives its place back at once.
 */
export async function countAttempt(
  em: EntityManager,
  keys: string[],
  limit: RateLimit,
  message: string,
): Promise<{ release: () => Promise<void> }> {
  const now = Date.now();
  const states = [];
  for (const key of keys) states.push(await rateLimiter.hit(em, key, limit, now));
  const release = async () => {
    for (const key of keys) await rateLimiter.release(em, key, limit, now);
  };
  const over = states.filter((s) => s.count > limit.limit);
  if (over.length > 0) {
    await release();
    throw tooManyRequests(message, Math.max(...over.map((s) => s.retryAfterSeconds)));
  }
  // Counters of past windows are useless; whoever writes them clears them now and then.
  if (Math.random() < 0.01) await rateLimiter.prune(em);
  return { release };
}

