import type { PagePath } from '@everest/core/contract';

/**
 * The route module (a file of src/app/routes) that renders each of the spec's pages, core's
 * `pagePaths`: TypeScript refuses a page of core's table that is missing here. The router
 * (`router.tsx`) renders from it, and the build (`build/page-links.ts`) names each page's lazy
 * chunk in its HTML. Plain data, so that the build can read it under Node.
 */
export const pageRouteModules = {
  '/': 'home',
  '/properties': 'properties',
  '/portfolio': 'properties',
  '/property-map': 'property-map',
  '/management-team': 'management-team',
  '/significant-transactions': 'significant-transactions',
  '/competitive-advantage': 'competitive-advantage',
  '/investor-services': 'investor-services',
  '/instructions': 'instructions',
  '/bulk-user-import-instructions': 'bulk-user-import-instructions',
} as const satisfies Record<PagePath, string>;

export type RouteModule = (typeof pageRouteModules)[PagePath];

/** The one page in the entry chunk; every other page (and the 404 page) is a lazy chunk. */
export const entryRouteModule = 'home' satisfies RouteModule;
