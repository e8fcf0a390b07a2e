import type Router from '@koa/router';
import type { Context } from 'koa';
import { routes } from '@everest/core/contract';
import { maxDocumentBytes, maxManifestCsvBytes } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import { type BatchUploadRule } from '../../http/multipart';
import { bind } from '../../http/route';
import type { AppState, SessionUser } from '../../http/state';
import type { FileStore } from '../files/file-store';
import { documentFileMessages } from '../files/document-type';
import { documentTypes } from '../files/sniff';
import { bulkUploadMessages, bulkUploadPersonalDocuments, earlierBatchAnswer } from './bulk-personal-documents.service';
import { bulkUploadPreview } from './manifest-knowledge';
import { contentMatchingInvestors } from './content-matching-investors';
import type { DocumentsCall } from '../document-access/document-files';
import { idempotencyKeyOf } from '../document-access/idempotency';

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
 * `bulk-upload-preview` and `bulk-upload-user-documents`, bound from their route lines: the
 * binder checks the caller, asks for an earlier answer under the Idempotency-Key before reading
 * anything, then streams the batch's files into temp files (bulkDocumentUpload) and parses its
 * text fields with the contract's schema.
 */
export function bulkPersonalDocumentsRoutes(
  router: Router<AppState>,
  store: FileStore,
  call: (ctx: Context & { state: AppState }, actor: SessionUser) => DocumentsCall,
): void {
  // The browser's dry run: what the database knows of the manifest's e-mails and the files' hashes.
  bind(router, routes.bulkUploadPreview, async ({ ctx, user, body }) => bulkUploadPreview(call(ctx, user).em, body));
  // "Match by content": the investors and identifiers the browser's or the desktop's reading needs.
  bind(router, routes.contentMatchingInvestors, async ({ ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return contentMatchingInvestors(ctx.state.em);
  });

  bind(
    router,
    routes.bulkUploadPersonalDocuments,
    async ({ ctx, user, body, batch }) => {
      if (!batch) throw new HttpError(400, bulkUploadMessages.missingFiles);
      return bulkUploadPersonalDocuments(call(ctx, user), body, batch, { idempotencyKey: idempotencyKeyOf(ctx) });
    },
    {
      effects: ['changes-documents', 'queues-mail'],
      batch: bulkDocumentUpload(store),
      // A retry of a committed batch is answered before a byte of it is stored again.
      before: async ({ ctx, user }) => {
        const idempotencyKey = idempotencyKeyOf(ctx);
        return idempotencyKey ? earlierBatchAnswer(call(ctx, user).em, user.id, idempotencyKey) : null;
      },
    },
  );
}
