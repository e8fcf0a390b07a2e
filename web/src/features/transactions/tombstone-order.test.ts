import { transactions } from '@everest/fixtures/transactions';
import { expect, it } from 'vitest';
import { tombstonesNewestFirst } from './tombstone-order';
import { tombstoneUrl } from './tombstone-images';

it('orders the 94 tombstones from 94 down to 1', () => {
  const numbers = tombstonesNewestFirst(transactions).map((t) => t.number);
  expect(numbers).toHaveLength(94);
  expect(numbers[0]).toBe(94);
  expect(numbers.at(-1)).toBe(1);
  expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
});

it('has an image file for every tombstone', () => {
  for (const t of transactions) expect(tombstoneUrl(t.image), t.image).toBeTruthy();
});
