import { describe, expect, it } from 'vitest';
import { spreadPoints, type Point } from './marker-spread';

// Two square targets are clear of each other when their centres are apart on one axis.
const closestPair = (points: Point[]) => {
  let min = Infinity;
  points.forEach((a, i) =>
    points.slice(i + 1).forEach((b) => {
      min = Math.min(min, Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y)));
    }),
  );
  return min;
};

describe('spreadPoints', () => {
  it('leaves markers alone that are far enough apart on one axis', () => {
    const points = [
      { x: 10, y: 10 },
      { x: 100, y: 20 },
      { x: 60, y: 200 },
    ];
    expect(spreadPoints(points, 24)).toEqual(points);
  });

  it('pushes two close markers apart along the axis that needs the smaller move', () => {
    const [a, b] = spreadPoints(
      [
        { x: 100, y: 100 },
        { x: 110, y: 100 },
      ],
      24,
    );
    expect(a?.y).toBe(100);
    expect(b?.y).toBe(100);
    expect((a?.x ?? 0) + (b?.x ?? 0)).toBeCloseTo(210);
    expect((b?.x ?? 0) - (a?.x ?? 0)).toBeGreaterThanOrEqual(24);
    expect((b?.x ?? 0) - (a?.x ?? 0)).toBeLessThan(24.5);
  });

  it('separates a cluster, markers on one spot included, near where it was, the same each time', () => {
    const cluster = [
      { x: 200, y: 150 },
      { x: 200, y: 150 },
      { x: 203, y: 152 },
      { x: 198, y: 149 },
      { x: 205, y: 147 },
      { x: 200, y: 150 },
    ];
    const spread = spreadPoints(cluster, 24);
    expect(closestPair(spread)).toBeGreaterThanOrEqual(24);
    for (const p of spread) expect(Math.hypot(p.x - 200, p.y - 150)).toBeLessThan(80);
    expect(spreadPoints(cluster, 24)).toEqual(spread);
  });

  it('keeps the spread markers inside the map', () => {
    const spread = spreadPoints(
      [
        { x: 2, y: 2 },
        { x: 4, y: 3 },
        { x: 3, y: 5 },
      ],
      24,
      { width: 300, height: 200 },
    );
    for (const p of spread) {
      expect(p.x).toBeGreaterThanOrEqual(12);
      expect(p.y).toBeGreaterThanOrEqual(12);
    }
    expect(closestPair(spread)).toBeGreaterThanOrEqual(24);
  });

  it('clears the seeded cluster around Phoenix as the map shows it on a phone', () => {
    const phoenix = [
      { x: 117, y: 664 },
      { x: 119, y: 660 },
      { x: 97, y: 648 },
      { x: 91, y: 670 },
      { x: 139, y: 679 },
      { x: 116, y: 689 },
      { x: 77, y: 662 },
      { x: 56, y: 676 },
      { x: 38, y: 659 },
    ];
    expect(closestPair(spreadPoints(phoenix, 25, { width: 375, height: 560 }))).toBeGreaterThanOrEqual(25);
  });
});
