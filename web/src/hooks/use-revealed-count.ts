import { useEffect, useState } from 'react';

export interface RevealSteps {
  /** How many items render at once, as soon as `start` is true. */
  first: number;
  /** How many more render in each following task. */
  batch: number;
  /** False holds every item back (default true). */
  start?: boolean;
}

/**
 * How many of `total` items to render so far, for a list whose single commit would be a long
 * task on a phone: `first` at once, then `batch` more after each commit, each update in a task
 * of its own (React would render updates that come before its next render together). The
 * count only grows: a list that gets shorter (a filter) renders whole, and one that gets longer
 * again goes on from where the reveal was.
 */
export function useRevealedCount(total: number, { first, batch, start = true }: RevealSteps): number {
  const [revealed, setRevealed] = useState(first);
  useEffect(() => {
    if (!start || revealed >= total) return;
    const timer = setTimeout(() => setRevealed((n) => n + batch));
    return () => clearTimeout(timer);
  }, [revealed, total, start, batch]);
  return start ? Math.min(revealed, total) : 0;
}
