import type { TransactionFixture } from '@everest/fixtures';

/** The page shows the tombstones numbered 94 down to 1: the most recent first (spec). */
export function tombstonesNewestFirst<T extends Pick<TransactionFixture, 'number'>>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.number - a.number);
}
