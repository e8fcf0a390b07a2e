import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  bulkUploadPersonalDocumentsAnswer,
  type BulkUploadPreviewAnswer,
  type BulkUploadPreviewBody,
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
  type DocumentCategory,
  type ManifestFile,
  type Quarter,
} from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import type { BatchMultipartBody, UploadedFile } from '../../http/multipart';
import { recordAdminAction } from '../audit/admin-audit';
import { enqueueMail } from '../mail/outbox';
import { User, type IUser } from '../users/user.entity';
import { correctedLine, digestLine, publishPersonalDocument, type NewPersonalDocument } from './admin-personal-documents.service';
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

/** What the dry run needs to know of the database: the named investors, their contents among these hashes, their documents. */
export interface ManifestKnowledge {
  usersByEmail: Map<string, number>;
  publishedHashes: Map<number, Set<string>>;
  /** Each investor's documents, by which a row is a correction (core's documentIdentityKey). */
  publishedDocuments: Map<number, BulkUploadPreviewAnswer['users'][number]['documents']>;
  /** `${userId}:${sha256}` → the document that investor has with that content. */
  documentsByContent: Map<string, number>;
  /** The named investors who can sign in, and so are e-mailed. */
  activeUsers: Set<number>;
  /** The named investors who cannot: their rows are refused. */
  deactivatedUsers: Set<number>;
}

function addTo(map: Map<number, Set<string>>, key: number, value: string): void {
  map.set(key, (map.get(key) ?? new Set()).add(value));
}

/**
 * Looks up what planBulkManifest needs, for these e-mails and hashes only; the server's run and
 * the browser's preview (bulkUploadPreview) read the same answer. Lists travel as one JSON
 * parameter: the driver would spread an array into a list of values.
 */
export async function manifestKnowledge(em: EntityManager, emails: readonly string[], hashes: readonly string[]): Promise<ManifestKnowledge> {
  const knowledge: ManifestKnowledge = {
    usersByEmail: new Map(),
    publishedHashes: new Map(),
    publishedDocuments: new Map(),
    documentsByContent: new Map(),
    activeUsers: new Set(),
    deactivatedUsers: new Set(),
  };
  if (emails.length === 0) return knowledge;
  const users = await em.execute<{ id: number; email: string; is_active: boolean }[]>(
    'select id, lower(email) as email, is_active from users where lower(email) in (select lower(jsonb_array_elements_text(?::jsonb)))',
    [JSON.stringify(emails)],
  );
  if (users.length === 0) return knowledge;
  for (const u of users) {
    knowledge.usersByEmail.set(u.email, u.id);
    (u.is_active ? knowledge.activeUsers : knowledge.deactivatedUsers).add(u.id);
  }
  const ids = JSON.stringify(users.map((u) => u.id));
  const uniqueHashes = [...new Set(hashes)];
  const [published, documents] = await Promise.all([
    uniqueHashes.length
      ? em.execute<{ id: number; user_id: number; sha256: string }[]>(
          `select d.id, d.user_id, f.sha256 from user_documents d join stored_files f on f.id = d.file_id
            where d.user_id in (select jsonb_array_elements_text(?::jsonb)::int)
              and f.sha256 in (select jsonb_array_elements_text(?::jsonb))`,
          [ids, JSON.stringify(uniqueHashes)],
        )
      : [],
    em.execute<{ id: number; user_id: number; title: string; document_category: DocumentCategory; year: number; quarter: Quarter; uploaded_at: string }[]>(
      `select id, user_id, title, document_category, year, quarter,
              to_char(uploaded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as uploaded_at
         from user_documents where user_id in (select jsonb_array_elements_text(?::jsonb)::int)`,
      [ids],
    ),
  ]);
  for (const r of published) {
    addTo(knowledge.publishedHashes, r.user_id, r.sha256);
    const key = `${r.user_id}:${r.sha256}`;
    knowledge.documentsByContent.set(key, Math.min(r.id, knowledge.documentsByContent.get(key) ?? r.id));
  }
  for (const r of documents) {
    const identity = { documentId: r.id, title: r.title, category: r.document_category, year: r.year, quarter: r.quarter, firstPublishedAt: r.uploaded_at };
    const list = knowledge.publishedDocuments.get(r.user_id);
    if (list) list.push(identity);
    else knowledge.publishedDocuments.set(r.user_id, [identity]);
  }
  return knowledge;
}

/** The browser's dry run asks this before sending anything (see bulkUploadPreviewBody). */
export async function bulkUploadPreview(em: EntityManager, body: BulkUploadPreviewBody): Promise<BulkUploadPreviewAnswer> {
  const known = await manifestKnowledge(em, body.emails, body.sha256);
  return {
    users: [...known.usersByEmail].map(([email, userId]) => ({
      email,
      userId,
      publishedSha256: [...(known.publishedHashes.get(userId) ?? [])],
      documents: known.publishedDocuments.get(userId) ?? [],
      active: known.activeUsers.has(userId),
    })),
  };
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
  // Any CSV fault refuses the whole manifest before anything is published (issue 32 case 1).
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
      // Not a failure (issue 32): the investor has it, and the answer names their document.
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
    // notifyLater (issue 32): the e-mails wait for notify-documents, which sends one digest per
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
      // Three counts apart: what is new, what the investors already had, what failed (issue 32).
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
 * sent (issue 32): nothing new is published, and the answer says so. The first batch's documents
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
