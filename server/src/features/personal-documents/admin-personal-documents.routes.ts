import type Router from '@koa/router';
import { personalDocumentAnswer, routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Config } from '../../config';
import type { FileExistence } from '../files/file-existence';
import type { FileStore } from '../files/file-store';
import { documentUpload } from '../files/document-type';
import {
  deletePersonalDocument,
  editPersonalDocument,
  listAdminPersonalDocuments,
  replacePersonalDocument,
  uploadPersonalDocument,
  uploadPersonalDocumentActions,
} from './admin-personal-documents.service';
import { bulkPersonalDocumentsRoutes } from './bulk-personal-documents.routes';
import { documentsCallOf } from '../document-access/document-files';
import { earlierUpload, idempotencyKeyOf } from '../document-access/idempotency';

/**
 * Personal documents' administration: upload, replace, edit, delete, the paged list and the bulk
 * upload. Administrators only, by the route table. Answers are no-store: they name investors and
 * their papers.
 */
export function adminPersonalDocumentsRoutes(
  router: Router<AppState>,
  { config, files, fileExistence }: { config: Config; files: FileStore; fileExistence: FileExistence },
): void {
  const upload = documentUpload(files);
  const call = documentsCallOf(config, fileExistence);
  // Every write changes what some investor's portal lists; uploads may queue e-mail.
  const writes = { effects: ['changes-documents'] } as const;
  const publishes = { effects: ['changes-documents', 'queues-mail'], upload } as const;

  bind(router, routes.adminPersonalDocuments, async ({ ctx, user, query }) =>
    listAdminPersonalDocuments(call(ctx, user).em, fileExistence, query),
  );
  bind(
    router,
    routes.uploadPersonalDocument,
    async ({ ctx, user, body, upload }) => uploadPersonalDocument(call(ctx, user), body, upload, { idempotencyKey: idempotencyKeyOf(ctx) }),
    { ...publishes, before: async ({ ctx, user }) => earlierUpload(ctx, user, uploadPersonalDocumentActions, personalDocumentAnswer) },
  );
  bind(router, routes.editPersonalDocument, async ({ ctx, user, body }) => editPersonalDocument(call(ctx, user), body), writes);
  bind(
    router,
    routes.replacePersonalDocument,
    async ({ ctx, user, params, body, upload }) => replacePersonalDocument(call(ctx, user), params.documentId, body, upload),
    publishes,
  );
  bind(router, routes.deletePersonalDocument, async ({ ctx, user, body }) => deletePersonalDocument(call(ctx, user), body), writes);
  bulkPersonalDocumentsRoutes(router, files, call);
}
