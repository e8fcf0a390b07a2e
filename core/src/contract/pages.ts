/**
 * The spec's page routes (public-site.md section 2). The web router renders them; the server
 * answers them with the app shell and status 200, and any other path with the shell and 404.
 */
export const pagePaths = [
  '/',
  '/properties',
  '/portfolio',
  '/property-map',
  '/management-team',
  '/significant-transactions',
  '/competitive-advantage',
  '/investor-services',
  '/instructions',
  '/bulk-user-import-instructions',
] as const;
export type PagePath = (typeof pagePaths)[number];

const pagesByFoldedPath = new Map<string, PagePath>(pagePaths.map((page) => [page, page]));

/**
 * The page an address shows: letter case ignored and trailing slashes dropped, so `/Properties/`
 * is `/properties`. The web router renders by it and the server answers by it, so that whatever
 * the browser renders as a page is answered 200, and everything else 404.
 */
export function pageOf(path: string): PagePath | null {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
  return pagesByFoldedPath.get(trimmed.toLowerCase()) ?? null;
}
