import { lazy } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { RootLayout } from '../components/layout/root-layout';
import HomeRoute from './routes/home';
import NotFoundRoute from './routes/not-found';
import { PageErrorBoundary } from './routes/route-error';

// Home and the 404 page are in the entry chunk; every other page is its own lazy chunk, so
// that / loads no map, portal, instruction or admin code.
const PropertiesRoute = lazy(() => import('./routes/properties'));
const PropertyMapRoute = lazy(() => import('./routes/property-map'));
const ManagementTeamRoute = lazy(() => import('./routes/management-team'));
const SignificantTransactionsRoute = lazy(() => import('./routes/significant-transactions'));
const CompetitiveAdvantageRoute = lazy(() => import('./routes/competitive-advantage'));
const InvestorServicesRoute = lazy(() => import('./routes/investor-services'));
const InstructionsRoute = lazy(() => import('./routes/instructions'));
const BulkUserImportInstructionsRoute = lazy(
  () => import('./routes/bulk-user-import-instructions'),
);

// The spec's route table (public site, section 2). The server answers the same paths with
// the SPA shell and any other path with status 404.
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <PageErrorBoundary />,
        children: [
          { index: true, element: <HomeRoute /> },
          { path: 'properties', element: <PropertiesRoute /> },
          { path: 'portfolio', element: <PropertiesRoute /> },
          { path: 'property-map', element: <PropertyMapRoute /> },
          { path: 'management-team', element: <ManagementTeamRoute /> },
          { path: 'significant-transactions', element: <SignificantTransactionsRoute /> },
          { path: 'competitive-advantage', element: <CompetitiveAdvantageRoute /> },
          { path: 'investor-services', element: <InvestorServicesRoute /> },
          { path: 'instructions', element: <InstructionsRoute /> },
          { path: 'bulk-user-import-instructions', element: <BulkUserImportInstructionsRoute /> },
          { path: '*', element: <NotFoundRoute /> },
        ],
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
