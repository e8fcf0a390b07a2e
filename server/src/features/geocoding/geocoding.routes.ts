import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Geocoder } from './geocoder';

/** Get Coordinates: the server asks the geocoder, so no client needs its origin in its CSP. */
export function geocodingRoutes(router: Router<AppState>, { geocoder }: { geocoder: Geocoder }): void {
  bind(router, routes.geocode, async ({ query }) => geocoder.search(query.q));
}
