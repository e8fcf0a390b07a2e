import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { MikroORM } from '@mikro-orm/postgresql';
import { cachedPublicProperties, readyPublicProperties, type PropertyListCache } from './properties.service';

export function propertiesRoutes(router: Router<AppState>, services: { orm: MikroORM; propertyList: PropertyListCache }): void {
  // The busiest public call: served from memory (compressed in advance), dropped by the database
  // on any change, and answered ahead of the middleware that has nothing to do for it.
  bind(router, routes.listProperties, () => cachedPublicProperties(services), { hot: () => readyPublicProperties(services) });
}
