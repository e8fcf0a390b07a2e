import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  bulkUploadPersonalDocumentsAnswer,
  type BulkUploadPersonalDocumentsAnswer,
  type BulkUploadPersonalDocumentsBody,
} from '@everest/core/contract';
import {
  decodeCsvBytes,
  displayName,
  manifestEmails,
  planBulkManifest,
  portalMessages,
  type CsvEncoding,
  type ManifestFile,
} from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import type { BatchMultipartBody, UploadedFile } from '../../http/multipart';
import { recordAdminAction } from '../audit/admin-audit';
import { enqueueMail } from '../mail/outbox';
import { User, type IUser } from '../users/user.entity';
import { correctedLine } from './admin-personal-documents.service';
import { manifestKnowledge } from './manifest-knowledge';
import { digestLine, publishPersonalDocument, type NewPersonalDocument } from './personal-document-publishing';
import { newDocumentsMail, type PublishedDocument } from '../document-access/document-mail';
import { earlierAnswer, holdIdempotencyKey } from '../document-access/idempotency';
import { keepDocumentFile, type DocumentsCall, type KeptDocumentFile } from '../document-access/document-files';

export const bulkUploadMessages = {
  missingFiles: `${portalMessages.missingFiles}: please select the CSV manifest and the documents it names.`,
  manifestTooLarge: 'The CSV manifest must be less than 5MB.',
  unreadableManifest: 'The CSV manifest could not be read as text.',
  halfPeriod: "Please give both the batch's year and its quarter, or neither.",
  waiting: 'Their e-mails wait to be sent with the rest of the batch.',
} as const;

/**
 * The manifest's text: a text field as sent, a file part decoded by core's decodeCsvBytes (UTF-8
 * with or without BOM, else Windows-1252, as the user import and the dry runs read it).
 */
function manifestText(batch: BatchMultipartBody): { text: string; encoding: CsvEncoding } | null {
  const field = batch.fields.csvManifest;
  if (field !== undefined) return { text: field, encoding: 'utf-8' };
  return batch.textFile ? decodeCsvBytes(batch.textFile) : null;
}

interface RowFailure {
  row: number;
  filename: string;
  error: string;
}

/** 'Row 3: User not found': the spec numbers rows from 2, the header being row 1. */
function failure(row: number, filename: string, error: string): RowFailure {
  return { row, filename: filename || `Row ${row}`, error: `Row ${row}: ${error}` };
}

/**
 * Publishes a batch of personal documents: the manifest is planned by the same core function the
 * browser's dry run uses (planBulkManifest), on the files as they really arrived, then every
 * 'publish' row is written in one transaction with the single upload's logic, and one digest per
 * investor is queued in it. Rows whose content the investor already has are listed apart
 * (`alreadyPublished`, not failures); files refused while streaming (413, 415) and files that
 * are not what their container claims fail their row alone.
 */
export async function bulkUploadPersonalDocuments(
  call: DocumentsCall,
  body: BulkUploadPersonalDocumentsBody,
  batch: BatchMultipartBody,
  options: { idempotencyKey?: string; now?: Date } = {},
): Promise<BulkUploadPersonalDocumentsAnswer> {
  const now = options.now ?? new Date();
  if ((body.year === undefined) !== (body.quarter === undefined)) throw new HttpError(400, bulkUploadMessages.halfPeriod);
  const batchPeriod = body.year !== undefined && body.quarter !== undefined ? { year: body.year, quarter: body.quarter } : null;
  const manifest = manifestText(batch);
  if (manifest === null || (batch.files.length === 0 && batch.refused.length === 0)) {
    throw new HttpError(400, bulkUploadMessages.missingFiles);
  }
  const csvText = manifest.text;

  const { usersByEmail, publishedHashes, publishedDocuments, documentsByContent, deactivatedUsers } = await manifestKnowledge(
    call.em,
    manifestEmails(csvText),
    batch.files.map((f) => f.sha256),
  );

  // The files refused while streaming (413, 415) take part in the plan by name with the reason
  // they were refused, so that their rows fail with it ('file-refused') rather than as missing.
  const uploads = new Map<ManifestFile, UploadedFile>();
  const files: ManifestFile[] = [];
  for (const upload of batch.files) {
    const file = { name: upload.filename, size: upload.size, sha256: upload.sha256 };
    uploads.set(file, upload);
    files.push(file);
  }
  for (const refused of batch.refused) files.push({ name: refused.filename, size: 0, refusal: refused.error });
  // Any CSV fault refuses the whole manifest before anything is published.
  const plan = planBulkManifest({
    csvText,
    encoding: manifest.encoding,
    files,
    usersByEmail,
    publishedHashes,
    publishedDocuments,
    deactivatedUsers,
    ...(batchPeriod ? { period: batchPeriod } : {}),
    now,
  });
  if (plan.error) throw new HttpError(400, plan.error);

  const failed: RowFailure[] = [];
  const alreadyPublished: (BulkUploadPersonalDocumentsAnswer['alreadyPublished'][number] & { row: number })[] = [];
  // One check and one move into the store per file, however many investors it goes to.
  const kept = new Map<UploadedFile, Promise<KeptDocumentFile>>();
  const toPublish: { row: number; document: NewPersonalDocument; correctionNote: string; userId: number; email: string; file: KeptDocumentFile }[] = [];
  for (const row of plan.rows) {
    if (row.outcome !== 'publish' && row.outcome !== 'already-published') {
      failed.push(failure(row.row, row.filename, row.error));
      continue;
    }
    if (row.outcome === 'already-published') {
      // Not a failure: the investor has it, and the answer names their document.
      const documentId = row.file.sha256 ? documentsByContent.get(`${row.userId}:${row.file.sha256}`) : undefined;
      alreadyPublished.push({ row: row.row, filename: row.filename, userEmail: row.email, title: row.title, ...(documentId ? { documentId } : {}) });
      continue;
    }
    const upload = uploads.get(row.file);
    if (!upload) throw new Error('a planned file is not among the uploads');
    let keeping = kept.get(upload);
    if (!keeping) {
      keeping = keepDocumentFile(upload, call.fileExistence);
      kept.set(upload, keeping);
    }
    try {
      const file = await keeping;
      toPublish.push({
        row: row.row,
        userId: row.userId,
        email: row.email,
        file,
        correctionNote: row.correctionNote,
        document: {
          title: row.title,
          documentCategory: row.documentCategory,
          description: row.description,
          documentDate: row.documentDate,
          tags: row.tags,
          // Core's periodOf: the row's date, else the batch's period, else the upload date's.
          year: row.year,
          quarter: row.quarter,
        },
      });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      failed.push(failure(row.row, row.filename, error.message));
    }
  }

  return call.em.transactional(async (tx) => {
    if (options.idempotencyKey) {
      // Two requests with one key at the same moment: the second waits here, then answers the first's result.
      await holdIdempotencyKey(tx, call.actor.id, 'bulk-upload', options.idempotencyKey);
      const earlier = await earlierBatchAnswer(tx, call.actor.id, options.idempotencyKey);
      if (earlier) return earlier;
    }
    // Owners locked in id order, so two batches for the same investors cannot deadlock.
    const ownerIds = [...new Set(toPublish.map((p) => p.userId))].sort((a, b) => a - b);
    const owners = new Map<number, IUser>();
    for (const id of ownerIds) {
      const owner = await tx.findOne(User, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (owner) owners.set(id, owner);
    }
    const successful: BulkUploadPersonalDocumentsAnswer['successful'] = [];
    const digests = new Map<IUser, PublishedDocument[]>();
    // notifyLater: the e-mails wait for notify-documents, which sends one digest per
    // reader with the quarter folder's property documents.
    const deferred = body.emailNotification && body.notifyLater;
    const pending: number[] = [];
    for (const item of toPublish) {
      const owner = owners.get(item.userId);
      if (!owner) {
        failed.push(failure(item.row, item.file.filename, portalMessages.userNotFound));
        continue;
      }
      const notify = body.emailNotification && owner.isActive;
      const outcome = await publishPersonalDocument(tx, call, owner, item.document, item.file, {
        action: 'bulk-upload-user-documents',
        emailNotification: body.emailNotification,
        notified: notify,
        row: item.row,
        correctionNote: item.correctionNote,
      });
      // Published by another request since the plan was made: as on a re-sent batch, nothing new.
      if (outcome.already) {
        alreadyPublished.push({ row: item.row, filename: item.file.filename, userEmail: owner.email, title: item.document.title, documentId: outcome.id });
        continue;
      }
      successful.push({
        filename: item.file.filename,
        userEmail: owner.email,
        title: item.document.title,
        documentId: outcome.id,
        ...(outcome.corrected ? { corrected: true, firstPublishedAt: outcome.corrected.firstPublishedAt } : {}),
        ...outcome.filed,
      });
      if (notify && deferred) {
        pending.push(outcome.id);
      } else if (notify) {
        const line = outcome.corrected ? await correctedLine(tx, outcome.id, item.correctionNote) : digestLine(item.document);
        digests.set(owner, [...(digests.get(owner) ?? []), line]);
      }
    }
    if (pending.length > 0) {
      await tx.execute('update user_documents set notification_pending = true where id in (select jsonb_array_elements_text(?::jsonb)::int)', [
        JSON.stringify(pending),
      ]);
    }
    for (const [owner, documents] of digests) {
      enqueueMail(tx, newDocumentsMail(owner.email, displayName(owner), documents, call.portalUrl));
    }

    failed.sort((a, b) => a.row - b.row);
    alreadyPublished.sort((a, b) => a.row - b.row);
    const answer: BulkUploadPersonalDocumentsAnswer = {
      // Three counts apart: what is new, what the investors already had, what failed.
      message: `${successful.length} published${correctionsSaid(successful)}, ${alreadyPublished.length} already published, ${failed.length} not published.`,
      successful,
      failed: failed.map(({ filename, error }) => ({ filename, error })),
      alreadyPublished: alreadyPublished.map(({ row: _row, ...rest }) => rest),
      unprocessed: plan.unprocessed,
      totalProcessed: plan.rows.length,
      ...(deferred ? { pendingUserDocumentIds: [...new Set(pending)].sort((a, b) => a - b) } : {}),
    };
    if (deferred) answer.message += ` ${bulkUploadMessages.waiting}`;
    // The batch as a whole, beside each document's own row: who sent what, and, under its key,
    // the answer a retry of the same request receives.
    recordAdminAction(tx, call.actor, call.clientAddress, {
      action: batchAuditAction,
      subject: { type: 'user-document', id: null, label: `Bulk upload of ${plan.rows.length} row(s)` },
      after: {
        ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
        emailNotification: body.emailNotification,
        ...(deferred ? { notifyLater: true } : {}),
        ...(batchPeriod ? { period: batchPeriod } : {}),
        published: successful.length,
        alreadyPublished: alreadyPublished.length,
        failed: failed.length,
        unprocessed: plan.unprocessed.length,
        answer,
      },
    });
    return answer;
  });
}

const batchAuditAction = 'bulk-upload-batch';

/** ' (2 of them corrections)', or nothing: the message keeps its old words when nothing was corrected. */
function correctionsSaid(successful: BulkUploadPersonalDocumentsAnswer['successful']): string {
  const count = successful.filter((s) => s.corrected).length;
  return count === 0 ? '' : ` (${count} of them ${count === 1 ? 'a correction' : 'corrections'})`;
}

/**
 * The answer to a batch sent again under the Idempotency-Key of one this administrator already
 * sent: nothing new is published, and the answer says so. The first batch's documents
 * are listed as already published, its failures stay failures, and its documents still waiting
 * for notify-documents are named, so a client that lost the first answer can still announce them.
 */
export async function earlierBatchAnswer(
  em: EntityManager,
  actorId: number,
  idempotencyKey: string,
): Promise<BulkUploadPersonalDocumentsAnswer | null> {
  const earlier = await earlierAnswer(em, actorId, idempotencyKey, [batchAuditAction]);
  if (!earlier) return null;
  const first = bulkUploadPersonalDocumentsAnswer.parse(earlier);
  const alreadyPublished = [
    ...first.successful.map(({ filename, userEmail, title, documentId }) => ({ filename, userEmail, title, documentId })),
    ...first.alreadyPublished,
  ];
  const documents = alreadyPublished.length === 1 ? '1 document was' : `${alreadyPublished.length} documents were`;
  const failures = first.failed.length === 0 ? '' : ` ${first.failed.length === 1 ? '1 row was' : `${first.failed.length} rows were`} not published.`;
  return {
    message: `Nothing new was published: ${documents} already published.${failures}`,
    successful: [],
    failed: first.failed,
    alreadyPublished,
    unprocessed: first.unprocessed,
    totalProcessed: first.totalProcessed,
    repeated: true,
    ...(first.pendingUserDocumentIds ? { pendingUserDocumentIds: first.pendingUserDocumentIds } : {}),
  };
}
