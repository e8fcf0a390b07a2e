import type Router from '@koa/router';
import { documentAnswer, routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Config } from '../../config';
import type { FileExistence } from '../files/file-existence';
import type { FileStore } from '../files/file-store';
import { documentUpload } from '../files/document-type';
import {
  deleteDocument,
  documentRecipients,
  listAdminDocuments,
  replaceDocument,
  updateDocument,
  uploadDocument,
  uploadDocumentActions,
} from './admin-documents.service';
import { notifyDocuments } from './notify-documents.service';
import { documentsCallOf } from '../document-access/document-files';
import { listDocumentVersions } from '../document-access/document-versions';
import { earlierUpload, idempotencyKeyOf } from '../document-access/idempotency';

/**
 * Property documents' administration: upload, replace, update, delete, the list, the versions and
 * the batch digest. Administrators only, by the route table. Answers are no-store: they name
 * investors and their papers.
 */
export function adminDocumentsRoutes(router: Router<AppState>, { config, files, fileExistence }: { config: Config; files: FileStore; fileExistence: FileExistence }): void {
  const upload = documentUpload(files);
  const call = documentsCallOf(config, fileExistence);
  // Every write changes what some investor's portal lists; uploads may queue e-mail.
  const writes = { effects: ['changes-documents'] } as const;
  const publishes = { effects: ['changes-documents', 'queues-mail'], upload } as const;

  bind(router, routes.adminDocuments, async ({ ctx, user }) => listAdminDocuments(call(ctx, user).em, fileExistence));
  bind(
    router,
    routes.uploadDocument,
    async ({ ctx, user, body, upload }) => uploadDocument(call(ctx, user), body, upload, { idempotencyKey: idempotencyKeyOf(ctx) }),
    { ...publishes, before: async ({ ctx, user }) => earlierUpload(ctx, user, uploadDocumentActions, documentAnswer) },
  );
  bind(
    router,
    routes.replaceDocument,
    async ({ ctx, user, params, body, upload }) => replaceDocument(call(ctx, user), params.documentId, body, upload),
    publishes,
  );
  bind(router, routes.updateDocument, async ({ ctx, user, body }) => updateDocument(call(ctx, user), body), writes);
  bind(router, routes.deleteDocument, async ({ ctx, user, body }) => deleteDocument(call(ctx, user), body), writes);
  // The sync's batch digest: writes no document a list shows, only mail.
  bind(router, routes.documentVersions, async ({ ctx, user, params }) =>
    listDocumentVersions(call(ctx, user).em, fileExistence, params.documentType, params.documentId),
  );
  bind(router, routes.notifyDocuments, async ({ ctx, user, body }) => notifyDocuments(call(ctx, user), body), { effects: ['queues-mail'] });
  // Asked before an upload with e-mail: "This will e-mail N people", or that no investor can see it.
  bind(router, routes.documentRecipients, async ({ ctx, user, query }) => documentRecipients(call(ctx, user).em, query.property, config.allowSharing));
}
