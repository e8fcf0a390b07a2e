import { describe, expect, it } from 'vitest';
import { nextCarouselInterval } from './carousel-interval';

describe('nextCarouselInterval', () => {
  it('waits between 3 and 5 seconds', () => {
    expect(nextCarouselInterval(() => 0)).toBe(3000);
    expect(nextCarouselInterval(() => 0.5)).toBe(4000);
    expect(nextCarouselInterval(() => 0.999999)).toBe(5000);
  });

  it('draws a new interval every time', () => {
    const intervals = Array.from({ length: 200 }, () => nextCarouselInterval());
    for (const ms of intervals) {
      expect(ms).toBeGreaterThanOrEqual(3000);
      expect(ms).toBeLessThanOrEqual(5000);
    }
    expect(new Set(intervals).size).toBeGreaterThan(50);
  });
});
