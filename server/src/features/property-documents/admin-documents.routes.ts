import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { documentAnswer, routes, personalDocumentAnswer } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState, SessionUser } from '../../http/state';
import type { Config } from '../../config';
import type { FileExistence } from '../files/file-existence';
import type { FileStore } from '../files/file-store';
import { documentUpload } from '../files/document-type';
import {
  deleteDocument,
  documentRecipients,
  listAdminDocuments,
  notifyDocuments,
  replaceDocument,
  updateDocument,
  uploadDocument,
  uploadDocumentActions,
} from './admin-documents.service';
import {
  deletePersonalDocument,
  editPersonalDocument,
  listAdminPersonalDocuments,
  replacePersonalDocument,
  uploadPersonalDocument,
  uploadPersonalDocumentActions,
} from '../personal-documents/admin-personal-documents.service';
import { bulkPersonalDocumentsRoutes } from '../personal-documents/bulk-personal-documents.routes';
import type { DocumentsCall } from '../document-access/document-files';
import { listDocumentVersions } from '../document-access/document-versions';
import { earlierAnswer, idempotencyKeyOf } from '../document-access/idempotency';

/**
 * Documents administration: property documents (upload, replace, update, delete, the list, the
 * batch digest) and personal documents (upload, replace, edit, delete, the paged list). Administrators only, by the route
 * table. Answers are no-store: they name investors and their papers.
 */
export function adminDocumentsRoutes(router: Router<AppState>, { config, files, fileExistence }: { config: Config; files: FileStore; fileExistence: FileExistence }): void {
  const upload = documentUpload(files);
  const portalUrl = `${config.publicUrl}/investor-services`;
  const call = (ctx: Context & { state: AppState }, actor: SessionUser): DocumentsCall => {
    ctx.set('Cache-Control', 'no-store');
    return { em: ctx.state.em, actor, clientAddress: ctx.ip, fileExistence, portalUrl, allowSharing: config.allowSharing };
  };
  // A retried upload under its Idempotency-Key is answered before a byte of it is stored again.
  const earlierUpload = async <T>(ctx: Context & { state: AppState }, user: SessionUser, actions: readonly string[], answer: z.ZodType<T>) => {
    const key = idempotencyKeyOf(ctx);
    const earlier = key ? await earlierAnswer(ctx.state.em, user.id, key, actions) : null;
    return earlier ? answer.parse(earlier) : null;
  };
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
