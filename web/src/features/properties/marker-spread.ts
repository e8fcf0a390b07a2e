export interface Point {
  x: number;
  y: number;
}

/**
 * Screen positions for markers whose square tap targets of `minDistance` pixels do not overlap,
 * moving each as little as it can. Properties a few miles apart share one spot on a map of the
 * whole country; spread apart, every marker stays visible and big enough to tap (WCAG 2.5.8 asks
 * for 24 px targets that no other target covers). Squares overlap unless their centres are
 * `minDistance` apart on one axis, so a pair that is too close is pushed apart along the axis
 * that needs the smaller move, until no pair is too close or `iterations` rounds have passed;
 * `bounds` keeps the markers inside the map.
 */
export function spreadPoints(
  points: readonly Point[],
  minDistance: number,
  bounds?: { width: number; height: number },
  iterations = 200,
): Point[] {
  const out = points.map(({ x, y }) => ({ x, y }));
  const margin = minDistance / 2;
  const clamp = (p: Point) => {
    if (!bounds) return;
    p.x = Math.min(Math.max(p.x, margin), Math.max(margin, bounds.width - margin));
    p.y = Math.min(Math.max(p.y, margin), Math.max(margin, bounds.height - margin));
  };
  for (let round = 0; round < iterations; round++) {
    let moved = false;
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i];
        const b = out[j];
        if (!a || !b) continue;
        const dx = b.x - a.x;
        const dy = b.y - a.y;
        if (Math.max(Math.abs(dx), Math.abs(dy)) >= minDistance) continue;
        // The axis along which they are already further apart needs the smaller push. Markers
        // on the very same spot part along an axis and a side that depend on their order only,
        // so the layout is the same on every render.
        const horizontal = Math.abs(dx) === Math.abs(dy) ? j % 2 === 0 : Math.abs(dx) > Math.abs(dy);
        const gap = horizontal ? dx : dy;
        const side = gap === 0 ? (j % 4 < 2 ? 1 : -1) : Math.sign(gap);
        // A hair more than half the missing distance each, so that the pair ends just clear.
        const push = (minDistance - Math.abs(gap)) / 2 + 0.05;
        if (horizontal) {
          a.x -= side * push;
          b.x += side * push;
        } else {
          a.y -= side * push;
          b.y += side * push;
        }
        clamp(a);
        clamp(b);
        moved = true;
      }
    }
    if (!moved) break;
  }
  return out;
}
