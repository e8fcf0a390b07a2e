import type Router from '@koa/router';
import type { Context } from 'koa';
import { bulkUploadUserDocumentsBody, idempotencyKeyHeader, routes } from '@everest/core/contract';
import { maxDocumentBytes, maxManifestCsvBytes } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import { readBatchMultipart, type BatchUploadRule } from '../../http/multipart';
import { bind } from '../../http/route';
import type { AppState, SessionUser } from '../../http/state';
import type { FileStore } from '../files/file-store';
import { documentFileMessages } from '../files/document-type';
import { documentTypes } from '../files/sniff';
import { bulkUploadMessages, bulkUploadPreview, bulkUploadUserDocuments, earlierBatchAnswer } from './bulk-user-documents.service';
import type { DocumentsCall } from './document-files';

/** A quarter's batch is a few hundred investors; far more is a mistake, or a stranger's flood. */
export const maxBulkFiles = 1000;

/** Each file checked as the single upload checks its one (documentUpload), the manifest read as text. */
export function bulkDocumentUpload(store: FileStore): BatchUploadRule {
  return {
    field: 'documents',
    store,
    maxFiles: maxBulkFiles,
    maxBytes: maxDocumentBytes,
    accept: documentTypes,
    tooLargeMessage: documentFileMessages.tooLarge,
    wrongTypeMessage: documentFileMessages.wrongType,
    textPart: { name: 'csvManifest', maxBytes: maxManifestCsvBytes, tooLargeMessage: bulkUploadMessages.manifestTooLarge },
  };
}

/**
 * `bulk-upload-preview` and `bulk-upload-user-documents`. The route binder hands a handler one file; this route takes a
 * batch, so it is bound without the binder's multipart reading (after the same access rule)
 * and reads its form itself, parsing the text fields with the contract's schema.
 */
export function bulkUserDocumentsRoutes(
  router: Router<AppState>,
  store: FileStore,
  call: (ctx: Context & { state: AppState }, actor: SessionUser) => DocumentsCall,
): void {
  // The browser's dry run: what the database knows of the manifest's e-mails and the files' hashes.
  bind(router, routes.bulkUploadPreview, async ({ ctx, user, body }) => bulkUploadPreview(call(ctx, user).em, body));

  const rule = bulkDocumentUpload(store);
  const route = { ...routes.bulkUploadUserDocuments, body: undefined, multipart: false };
  bind(
    router,
    route,
    async ({ ctx, user }) => {
      const idempotencyKey = idempotencyKeyHeader.parse(ctx.get('idempotency-key') || undefined);
      const documents = call(ctx, user);
      // A retry of a committed batch is answered before a byte of it is stored again.
      const earlier = idempotencyKey ? await earlierBatchAnswer(documents.em, user.id, idempotencyKey) : null;
      if (earlier) return earlier;
      if (!ctx.is('multipart')) throw new HttpError(400, bulkUploadMessages.missingFiles);
      const batch = await readBatchMultipart(ctx, rule);
      try {
        return await bulkUploadUserDocuments(documents, bulkUploadUserDocumentsBody.parse(batch.fields), batch, { idempotencyKey });
      } finally {
        // Kept files were moved into the store; this removes what was refused or not named.
        await Promise.all(batch.files.map((file) => file.discard()));
      }
    },
    { effects: ['changes-documents', 'queues-mail'] },
  );
}
