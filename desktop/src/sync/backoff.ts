export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

export const defaultBackoff: BackoffOptions = { baseMs: 2_000, maxMs: 5 * 60_000 };

/**
 * The wait before attempt `attempts + 1`: doubling from baseMs up to maxMs, then a random half
 * of it taken off ("equal jitter"), so that many files failed by one outage do not all come back
 * in the same second.
 */
export function retryDelayMs(attempts: number, options: BackoffOptions = defaultBackoff, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
