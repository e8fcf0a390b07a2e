import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Services } from '../../services';
import { cachedPublicProperties, readyPublicProperties } from './properties.service';

export function propertiesRoutes(router: Router<AppState>, services: Services): void {
  // The busiest public call: served from memory (compressed in advance), dropped by the database
  // on any change, and answered ahead of the middleware that has nothing to do for it.
  bind(router, routes.listProperties, () => cachedPublicProperties(services), { hot: () => readyPublicProperties(services) });
}
