import { lazy, type ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { pagePaths, type PagePath } from '@everest/core/contract';
import { RootLayout } from '../components/layout/root-layout';
import { pageRouteModules, type RouteModule } from './page-routes';
import HomeRoute from './routes/home';
import { PageErrorBoundary } from './routes/route-error';

// Home is in the entry chunk; every other page is its own lazy chunk, so that / loads no map,
// portal, instruction or admin code. The 404 page too (issue 37: 2 kB gzip that / never
// shows); a 404 answer is readable without it and is hydrated once it is in.
const NotFoundRoute = lazy(() => import('./routes/not-found'));
const routeComponents = {
  home: HomeRoute,
  properties: lazy(() => import('./routes/properties')),
  'property-map': lazy(() => import('./routes/property-map')),
  'management-team': lazy(() => import('./routes/management-team')),
  'significant-transactions': lazy(() => import('./routes/significant-transactions')),
  'competitive-advantage': lazy(() => import('./routes/competitive-advantage')),
  'investor-services': lazy(() => import('./routes/investor-services')),
  instructions: lazy(() => import('./routes/instructions')),
  'bulk-user-import-instructions': lazy(() => import('./routes/bulk-user-import-instructions')),
} satisfies Record<RouteModule, ComponentType>;

function pageRoute(path: PagePath): RouteObject {
  const Page = routeComponents[pageRouteModules[path]];
  // '/' is the layout's index route.
  return path === '/' ? { index: true, element: <Page /> } : { path: path.slice(1), element: <Page /> };
}

// The spec's route table (public site, section 2; core's pagePaths). The server answers the
// same paths with the SPA shell and any other path with status 404.
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <PageErrorBoundary />,
        children: [...pagePaths.map(pageRoute), { path: '*', element: <NotFoundRoute /> }],
      },
    ],
  },
];

/**
 * The page of the current address. Declarative routes, not a data router (createBrowserRouter):
 * the site uses no loaders or actions, and making a data router was one unbroken piece of about
 * 80 ms of a throttled phone's first render, with 16 kB gzip of code in the entry chunk that
 * nothing else needs.
 */
export function AppRoutes() {
  return useRoutes(appRoutes);
}
