import { describe, expect, it } from 'vitest';
import { middleOf, tileAddress, tileMosaic, tileSize, worldPixel, zoomToFit } from './tile-mosaic';

const pasadena = [34.1478, -118.1445] as const;

describe('the tiles around a point', () => {
  it('finds the tile a place is on as tile services number them', () => {
    // Pasadena is on tile 10/175/408 (OpenStreetMap's numbering); {s} is a, b or c by (x + y) mod 3.
    const { x, y } = worldPixel(pasadena, 10);
    expect([Math.floor(x / tileSize), Math.floor(y / tileSize)]).toEqual([175, 408]);
    // The world's corners and middle.
    expect(worldPixel([0, 0], 0)).toEqual({ x: 128, y: 128 });
    expect(worldPixel([85.05112878, -180], 1).y).toBeCloseTo(0, 3);
  });

  it('writes tile addresses as Leaflet does, {s} and {r} included', () => {
    expect(tileAddress('https://{s}.tile.example.com/{z}/{x}/{y}{r}.png', 175, 408, 10, false)).toBe('https://b.tile.example.com/10/175/408.png');
    expect(tileAddress('https://{s}.tile.example.com/{z}/{x}/{y}{r}.png', 176, 408, 10, true)).toBe('https://c.tile.example.com/10/176/408@2x.png');
    // TMS counts rows from the bottom: 1,024 rows at zoom 10.
    expect(tileAddress('/tms/{z}/{x}/{-y}.png', 175, 408, 10, false)).toBe('/tms/10/175/615.png');
  });

  it('covers the reach around the centre, the centre placed where it falls among the tiles', () => {
    const centre = worldPixel(pasadena, 0);
    const mosaic = tileMosaic(centre, 10, { x: 180, y: 260 }, '/tiles/{z}/{x}/{y}.png');
    const point = worldPixel(pasadena, 10);
    const lefts = mosaic.tiles.map((t) => t.left);
    const tops = mosaic.tiles.map((t) => t.top);
    // Every pixel within the reach is on a tile of the mosaic.
    expect(mosaic.centre.left - 180).toBeGreaterThanOrEqual(Math.min(...lefts));
    expect(mosaic.centre.left + 180).toBeLessThanOrEqual(Math.max(...lefts) + tileSize);
    expect(mosaic.centre.top - 260).toBeGreaterThanOrEqual(Math.min(...tops));
    expect(mosaic.centre.top + 260).toBeLessThanOrEqual(Math.max(...tops) + tileSize);
    expect(mosaic.width).toBe(Math.max(...lefts) + tileSize);
    expect(mosaic.height).toBe(Math.max(...tops) + tileSize);
    // The centre's tile is the one Pasadena is on, at the centre's offset within it.
    const home = mosaic.tiles.find((t) => t.src === '/tiles/10/175/408.png');
    expect(home).toBeDefined();
    expect(mosaic.centre.left - (home?.left ?? 0)).toBe(Math.round(point.x - 175 * tileSize));
    expect(mosaic.tiles.every((t) => t.srcSet === undefined)).toBe(true);
  });

  it('wraps at the date line and stops at the poles', () => {
    const mosaic = tileMosaic(worldPixel([84, 179.9], 0), 2, { x: 300, y: 300 }, '/{z}/{x}/{y}.png');
    expect(mosaic.tiles.map((t) => t.src)).toContain('/2/0/0.png');
    expect(mosaic.tiles.every((t) => /^\/2\/[0-3]\/[0-3]\.png$/.test(t.src))).toBe(true);
  });

  it('fits bounds at the whole zoom Leaflet would round down to, with the padding', () => {
    // Pasadena to New York, 31.4 px wide at zoom 0: 303 px of a phone's frame take 9.7 times
    // that (zoom 3.3), 1,960 px of a wide frame 62 times (zoom 5.96).
    const bounds = [pasadena, [40.7128, -74.006]] as const;
    expect(zoomToFit(bounds, { width: 343, height: 320, padding: 20 })).toBe(3);
    expect(zoomToFit(bounds, { width: 2000, height: 1200, padding: 20 })).toBe(5);
    const middle = middleOf(bounds);
    expect(middle.x).toBeCloseTo((worldPixel(pasadena, 0).x + worldPixel(bounds[1], 0).x) / 2, 9);
  });
});
