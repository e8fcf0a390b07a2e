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

export function isPagePath(path: string): path is PagePath {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return (pagePaths as readonly string[]).includes(normalized);
}
