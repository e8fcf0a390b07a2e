import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind, SerializedJson } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Services } from '../../services';

export function propertiesRoutes(router: Router<AppState>, { propertyList }: Services): void {
  bind(router, routes.listProperties, async () => new SerializedJson(await propertyList.get()));
}
