/**
 * The one place the maps' tiles come from: OpenStreetMap's public tile service (spec: "a public
 * open map service"), with the attribution its licence asks for. The server's TILE_URL setting
 * allows this origin in the CSP (img-src), so a change here goes with a change there.
 */
export const TILE_URL = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';

export const TILE_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
