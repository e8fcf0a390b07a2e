import { pageData } from '../../lib/page-data';

/**
 * Where the maps' tiles come from when the page names no source: OpenStreetMap's public tile
 * service (spec: "a public open map service"), the server's default TILE_URL too.
 */
const defaultTileUrl = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';

/**
 * The one place the maps' tiles come from: the server's TILE_URL setting, which it embeds in
 * every page (lib/page-data.ts) and allows in the CSP (img-src), so that a firm can use its own
 * tile provider, and tests and benchmarks a local one.
 */
export const tileUrl = (): string => pageData().tileUrl ?? defaultTileUrl;

export const TILE_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
