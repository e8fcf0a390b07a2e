import { setTimeout as sleep } from 'node:timers/promises';

/** Every window of the server's rate limits is a whole number of these (rate-limiter.test.ts checks). */
export const rateLimitWindowGridMs = 5 * 60_000;

/** Longer than any test that counts up to a limit takes (their timeout is 30 s); the longest wait. */
export const rateLimitWindowRoomMs = 35_000;

/**
 * The server's counts slide (rate-limiter.ts), so a test that counts up to a limit no longer sees
 * its count start again at a window's end. Budgets and the windows' slices still end on the
 * clock: tests that count keep clear of a 5-minute mark, as they did when windows were fixed.
 */
export async function awayFromRateLimitWindowEnd(): Promise<void> {
  const left = rateLimitWindowGridMs - (Date.now() % rateLimitWindowGridMs);
  if (left < rateLimitWindowRoomMs) await sleep(left + 100);
}
