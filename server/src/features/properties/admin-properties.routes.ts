import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { FileStore } from '../files/file-store';
import {
  createProperty,
  deleteProperty,
  getAdminProperty,
  listAdminProperties,
  updateProperty,
} from './admin-properties.service';
import { photoUpload } from './property-photos';

export function adminPropertiesRoutes(router: Router<AppState>, { files }: { files: FileStore }): void {
  bind(router, routes.adminAllProperties, async ({ ctx }) => ({ properties: await listAdminProperties(ctx.state.em) }));

  bind(router, routes.adminInvestorProperties, async ({ ctx }) => ({
    properties: await listAdminProperties(ctx.state.em, true),
  }));

  bind(router, routes.adminProperty, async ({ ctx, params }) => ({ property: await getAdminProperty(ctx.state.em, params.id) }));

  bind(router, routes.createProperty, async ({ ctx, user, body }) =>
    createProperty(ctx.state.em, { user, clientAddress: ctx.ip }, body),
  );

  // Investors' document lists name their properties: this server's go at once (see changes-documents).
  bind(
    router,
    routes.updateProperty,
    async ({ ctx, user, body, upload }) => updateProperty(ctx.state.em, files, { user, clientAddress: ctx.ip }, body, upload),
    { upload: photoUpload(files), effects: ['changes-documents'] },
  );

  bind(
    router,
    routes.deleteProperty,
    async ({ ctx, user, body }) => deleteProperty(ctx.state.em, { user, clientAddress: ctx.ip }, body),
    { effects: ['changes-documents'] },
  );
}
