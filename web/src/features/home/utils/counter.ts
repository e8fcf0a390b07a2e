import { counterStartFraction } from '@everest/core/domain';

/** Where a counter starts: a random 50 to 70 percent of its end value (spec section 4), whole. */
export function counterStartValue(end: number, random: () => number = Math.random): number {
  const { min, max } = counterStartFraction;
  return Math.round(end * (min + random() * (max - min)));
}

// Fast at first, settling gently on the final figure.
const easeOutCubic = (t: number) => 1 - (1 - t) ** 3;

/** The whole number a counter shows `elapsedMs` into its animation from `start` to `end`. */
export function counterValueAt(start: number, end: number, elapsedMs: number, durationMs: number): number {
  if (elapsedMs >= durationMs) return end;
  const progress = easeOutCubic(Math.max(0, elapsedMs) / durationMs);
  return Math.round(start + (end - start) * progress);
}
