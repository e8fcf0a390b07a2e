import { describe, expect, it } from 'vitest';
import { counterStartValue, counterValueAt } from './counter';

describe('counterStartValue', () => {
  it('starts between 50 and 70 percent of the end value', () => {
    expect(counterStartValue(200, () => 0)).toBe(100);
    expect(counterStartValue(200, () => 0.999999)).toBe(140);
    for (let i = 0; i < 500; i += 1) {
      const start = counterStartValue(95);
      expect(start).toBeGreaterThanOrEqual(Math.round(95 * 0.5));
      expect(start).toBeLessThanOrEqual(Math.round(95 * 0.7));
      expect(Number.isInteger(start)).toBe(true);
    }
  });
});

describe('counterValueAt', () => {
  it('runs from the start value to the end value over the duration', () => {
    expect(counterValueAt(23, 46, 0, 2000)).toBe(23);
    expect(counterValueAt(23, 46, 2000, 2000)).toBe(46);
    expect(counterValueAt(23, 46, 5000, 2000)).toBe(46);
  });

  it('never goes backwards or past the end', () => {
    let previous = 100;
    for (let t = 0; t <= 2000; t += 50) {
      const value = counterValueAt(100, 200, t, 2000);
      expect(value).toBeGreaterThanOrEqual(previous);
      expect(value).toBeLessThanOrEqual(200);
      previous = value;
    }
  });
});
