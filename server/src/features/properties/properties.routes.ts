import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Services } from '../../services';
import { cachedPublicProperties } from './properties.service';

export function propertiesRoutes(router: Router<AppState>, services: Services): void {
  // The busiest public call: served from memory, dropped by the database on any change.
  bind(router, routes.listProperties, () => cachedPublicProperties(services));
}
