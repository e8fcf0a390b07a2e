import { lazy, type ComponentType } from 'react';
import { pageOf } from '@everest/core/contract';
import { RootLayout } from '../components/layout/root-layout';
import { pageRouteModules, type RouteModule } from './page-routes';
import HomeRoute from './routes/home';
import { PageErrorBoundary } from './routes/route-error';
import { useLocation } from '../lib/router';

// Home is in the entry chunk; every other page is its own lazy chunk, so that / loads no map,
// portal, instruction or admin code. The 404 page too (2 kB gzip that / never
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

/**
 * The page of the current address, in the frame every page shares (spec: public site, section
 * 2; core's pagePaths). `pageOf` is also how the server picks between the SPA shell with 200
 * and a 404, so that the two always agree on what is a page.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  const page = pageOf(pathname);
  const Page = page ? routeComponents[pageRouteModules[page]] : NotFoundRoute;
  return (
    <RootLayout>
      <PageErrorBoundary>
        <Page />
      </PageErrorBoundary>
    </RootLayout>
  );
}
