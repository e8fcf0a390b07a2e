import { setTimeout as sleep } from 'node:timers/promises';

/** Every window of the server's rate limits is a whole number of these (rate-limiter.test.ts checks). */
export const rateLimitWindowGridMs = 5 * 60_000;

/** Longer than any test that counts up to a limit takes (their timeout is 30 s); the longest wait. */
export const rateLimitWindowRoomMs = 35_000;

/**
 * The server counts attempts in fixed windows that start on the clock (rate-limiter.ts), each
 * ending on a 5-minute mark. A test that counts up to a limit while a window ends finds its count
 * started again, and no refusal (a CI run failed so, its test running across 17:15:00). Run before
 * each such test: when the next mark is nearer than a test may take, it waits for the mark, which
 * happens before about one test in nine and costs it 18 s on average.
 */
export async function awayFromRateLimitWindowEnd(): Promise<void> {
  const left = rateLimitWindowGridMs - (Date.now() % rateLimitWindowGridMs);
  if (left < rateLimitWindowRoomMs) await sleep(left + 100);
}
