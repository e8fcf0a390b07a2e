/**
 * Tiles as Leaflet and every tile service lay them out (Web Mercator, 256 px squares from the
 * top left of the world): the few around a point, placed in CSS pixels, for a map's picture that
 * needs no map code (features/properties/components/map-preview.tsx).
 */
export const tileSize = 256;

/** The deepest zoom the tile services serve everywhere. */
const maxZoom = 18;

type LatLng = readonly [lat: number, lng: number];

/** A point's position in the world's pixels at `zoom`. */
export function worldPixel([lat, lng]: LatLng, zoom: number): { x: number; y: number } {
  const scale = tileSize * 2 ** zoom;
  const sin = Math.sin((Math.max(-85.05112878, Math.min(85.05112878, lat)) * Math.PI) / 180);
  return {
    x: ((lng + 180) / 360) * scale,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale,
  };
}

/** A point in the world's pixels at zoom 0 (a 256 px world), from which any zoom is a scale. */
export type WorldPoint = { x: number; y: number };

/** The middle of bounds as a map fitting them centres it: halfway in the world's pixels. */
export function middleOf([southWest, northEast]: readonly [LatLng, LatLng]): WorldPoint {
  const a = worldPixel(southWest, 0);
  const b = worldPixel(northEast, 0);
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/**
 * The whole zoom at which `bounds` fit a frame of `width` × `height` CSS pixels with `padding`
 * on every side: Leaflet's fitBounds, rounded down to a whole zoom so that tiles show at their
 * own size.
 */
export function zoomToFit(bounds: readonly [LatLng, LatLng], frame: { width: number; height: number; padding: number }): number {
  const [southWest, northEast] = bounds;
  const a = worldPixel(southWest, 0);
  const b = worldPixel(northEast, 0);
  const scale = Math.min((frame.width - 2 * frame.padding) / Math.abs(b.x - a.x), (frame.height - 2 * frame.padding) / Math.abs(b.y - a.y));
  return Math.max(0, Math.min(maxZoom, Math.floor(Math.log2(scale))));
}

export interface MosaicTile {
  key: string;
  /** Its address, and its double-density one where the template has `{r}`. */
  src: string;
  srcSet?: string;
  /** Its place in the mosaic, from the mosaic's top left. */
  left: number;
  top: number;
}

export interface TileMosaic {
  tiles: MosaicTile[];
  /** Where the centre falls in the mosaic, from its top left: the mosaic is laid so that it sits in the frame's middle. */
  centre: { left: number; top: number };
  width: number;
  height: number;
}

/**
 * A tile's address from a Leaflet URL template, as Leaflet's TileLayer writes it: `{s}` one of
 * a, b and c by the tile, `{-y}` counted from the bottom (TMS), `{r}` for double density.
 */
export function tileAddress(template: string, x: number, y: number, zoom: number, retina: boolean): string {
  return template
    .replace('{s}', 'abc'[Math.abs(x + y) % 3] ?? 'a')
    .replace('{z}', String(zoom))
    .replace('{x}', String(x))
    .replace('{y}', String(y))
    .replace('{-y}', String(2 ** zoom - 1 - y))
    .replace('{r}', retina ? '@2x' : '');
}

/**
 * The tiles at `zoom` that cover a box of `reach` CSS pixels on each side of `centre`, and where
 * the centre falls among them.
 */
export function tileMosaic(centre: WorldPoint, zoom: number, reach: { x: number; y: number }, template: string): TileMosaic {
  const point = { x: centre.x * 2 ** zoom, y: centre.y * 2 ** zoom };
  const count = 2 ** zoom;
  const first = { x: Math.floor((point.x - reach.x) / tileSize), y: Math.max(0, Math.floor((point.y - reach.y) / tileSize)) };
  const last = { x: Math.floor((point.x + reach.x) / tileSize), y: Math.min(count - 1, Math.floor((point.y + reach.y) / tileSize)) };
  const tiles: MosaicTile[] = [];
  const doubled = template.includes('{r}');
  for (let y = first.y; y <= last.y; y++) {
    for (let x = first.x; x <= last.x; x++) {
      // East of the date line the world starts again.
      const wrapped = ((x % count) + count) % count;
      tiles.push({
        key: `${zoom}/${x}/${y}`,
        src: tileAddress(template, wrapped, y, zoom, false),
        srcSet: doubled ? `${tileAddress(template, wrapped, y, zoom, false)} 1x, ${tileAddress(template, wrapped, y, zoom, true)} 2x` : undefined,
        left: (x - first.x) * tileSize,
        top: (y - first.y) * tileSize,
      });
    }
  }
  return {
    tiles,
    centre: { left: Math.round(point.x - first.x * tileSize), top: Math.round(point.y - first.y * tileSize) },
    width: (last.x - first.x + 1) * tileSize,
    height: (last.y - first.y + 1) * tileSize,
  };
}
