import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import { SerializedJson } from '../../http/serialized-json';
import type { AppState } from '../../http/state';
import { cacheTable } from '../../caches';
import type { Services } from '../../services';
import { listPublicProperties } from './properties.service';

export function propertiesRoutes(router: Router<AppState>, { orm, propertyList }: Services): void {
  // The busiest public call: served from memory, dropped by the database on any change.
  bind(router, routes.listProperties, async () =>
    propertyList.get(cacheTable.propertyList.key(), async () => SerializedJson.of(await listPublicProperties(orm.em.fork()))),
  );
}
