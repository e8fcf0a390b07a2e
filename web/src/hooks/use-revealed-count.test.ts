import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useRevealedCount, type RevealSteps } from './use-revealed-count';

describe('useRevealedCount', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const steps = (total: number, options: RevealSteps) =>
    renderHook(({ total, options }) => useRevealedCount(total, options), { initialProps: { total, options } });

  /** The counts seen after each task, until nothing more is scheduled. */
  async function countsAfterEachTask(result: { current: number }): Promise<number[]> {
    const seen = [result.current];
    while (vi.getTimerCount() > 0) {
      await act(() => vi.advanceTimersToNextTimerAsync());
      seen.push(result.current);
    }
    return seen;
  }

  it('renders the first items at once, then a batch more in each task, up to the total', async () => {
    const { result } = steps(25, { first: 6, batch: 4 });
    expect(await countsAfterEachTask(result)).toEqual([6, 10, 14, 18, 22, 25]);
  });

  it('holds every item back until started, then starts from the first batch', async () => {
    const { result, rerender } = steps(7, { first: 0, batch: 3, start: false });
    expect(await countsAfterEachTask(result)).toEqual([0]);
    rerender({ total: 7, options: { first: 0, batch: 3, start: true } });
    expect(await countsAfterEachTask(result)).toEqual([0, 3, 6, 7]);
  });

  it('renders a shorter list whole, and goes on from where it was when the list grows again', async () => {
    const options = { first: 6, batch: 4 };
    const { result, rerender } = steps(25, options);
    await act(() => vi.advanceTimersToNextTimerAsync());
    expect(result.current).toBe(10);
    rerender({ total: 4, options });
    expect(result.current).toBe(4);
    rerender({ total: 25, options });
    expect(await countsAfterEachTask(result)).toEqual([10, 14, 18, 22, 25]);
  });
});
