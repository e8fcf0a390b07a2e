// Publishing a confirmed dry run: the property documents one by one through
// upload-document, each manifest through bulk-upload-user-documents with its period, all with
// notifyLater, then ONE notify-documents call, so that each reader gets one digest for the
// whole quarter folder. The calls are the server's; this only orders them and gathers what each
// answered into the results.
import type {
  BulkUploadPersonalDocumentsAnswer,
  DocumentAnswer,
  NotifyDocumentsAnswer,
  NotifyDocumentsBody,
} from '@everest/core/contract';
import { publicationKey, publishingMessages } from '@everest/core/domain';
import type { BulkUploadPersonalDocumentsInput } from '../api/bulk-upload-personal-documents';
import type { CorrectDocumentInput, CorrectionAnswer } from '../../../lib/admin/api/correct-document';
import type { UploadDocumentInput } from '../../../lib/admin/api/upload-document';
import { sha256Hex } from './bulk-batch';
import type { BatchDryRun } from './bulk-dry-run';
import { folderOf } from './bulk-selection';
import type { BatchResults } from './bulk-results';

export interface PublishServer {
  uploadDocument(input: UploadDocumentInput): Promise<DocumentAnswer>;
  /** A new version of a document the folder's file corrects (replace-document). */
  correctDocument(input: CorrectDocumentInput): Promise<CorrectionAnswer>;
  bulkUpload(input: BulkUploadPersonalDocumentsInput): Promise<BulkUploadPersonalDocumentsAnswer>;
  notify(body: NotifyDocumentsBody): Promise<NotifyDocumentsAnswer>;
}

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : 'The upload failed.');

/**
 * A property document's Idempotency-Key: its destination and content, within this dry run. A
 * Confirm pressed again after a lost answer sends the same keys (the server answers the first
 * results); a new preview makes new ones (the server's own check then finds the content
 * already published for that property).
 */
export function propertyUploadKey(nonce: string, property: string, sha256: string): Promise<string> {
  return sha256Hex(`${nonce}\n${publicationKey({ kind: 'property', property }, sha256)}`);
}

/**
 * A row the server reports as 'file not found' names a file the browser refused and did not
 * send: its real reason instead (an oversized file's row gives the size).
 */
function withRefusals(answer: BulkUploadPersonalDocumentsAnswer, refused: readonly { name: string; reason: string }[]): BulkUploadPersonalDocumentsAnswer {
  if (refused.length === 0) return answer;
  const reasons = new Map(refused.map((r) => [r.name.normalize('NFC').toLowerCase(), r.reason]));
  return {
    ...answer,
    failed: answer.failed.map((f) => {
      const reason = reasons.get(f.filename.normalize('NFC').toLowerCase());
      if (!reason) return f;
      const row = /^Row \d+: /.exec(f.error)?.[0] ?? '';
      return { ...f, error: `${row}${reason} It was not sent.` };
    }),
  };
}

export async function publishBatch(
  run: BatchDryRun,
  options: { emailNotification: boolean; onProgress?: (fraction: number) => void },
  server: PublishServer,
): Promise<BatchResults> {
  const toPublish = run.propertyDocuments.filter((d) => d.outcome === 'publish');
  // Only manifests with rows to publish are sent: the others would travel for nothing.
  const manifests = run.manifests.filter((m) => m.plan.counts.publish > 0);
  const sizes = [
    ...toPublish.map((d) => d.file.size),
    ...manifests.map((m) => m.manifest.size + m.files.reduce((n, f) => n + f.size, 0)),
  ];
  const total = sizes.reduce((a, b) => a + b, 0) || 1;
  let done = 0;
  const step = (size: number) => (fraction: number) => options.onProgress?.((done + fraction * size) / total);

  const results: BatchResults = {
    property: { published: [], alreadyPublished: [], failed: [] },
    personal: [],
    personalFailed: [],
    notSent: run.notSent,
    notified: null,
    notifyError: null,
  };

  for (const document of toPublish) {
    try {
      if (document.corrects) {
        // The same title and period as a document of its property, another content: its next
        // version, never a second document, announced as corrected in the batch's one digest.
        const corrected = document.corrects;
        const answer = await server.correctDocument({
          kind: 'property',
          documentId: corrected.id,
          destination: document.property,
          file: document.file,
          note: '',
          emailNotification: options.emailNotification,
          notifyLater: options.emailNotification,
          onProgress: step(document.file.size),
        });
        const identity = { ...corrected, category: null, firstPublishedAt: corrected.uploadedAt };
        if (answer.unchanged) {
          const existing = { title: corrected.title, year: corrected.year, quarter: corrected.quarter, documentId: corrected.id };
          results.property.alreadyPublished.push({ filename: document.filename, property: document.property, existing });
        } else {
          results.property.published.push({
            filename: document.filename,
            title: answer.document.title,
            property: document.property,
            year: corrected.year,
            quarter: corrected.quarter,
            documentId: corrected.id,
            corrects: publishingMessages.corrects(identity),
          });
        }
        done += document.file.size;
        continue;
      }
      const answer = await server.uploadDocument({
        fields: {
          title: document.title,
          property: document.property,
          year: document.year,
          quarter: document.quarter,
          emailNotification: options.emailNotification,
          notifyLater: options.emailNotification,
        },
        file: document.file,
        idempotencyKey: await propertyUploadKey(run.nonce, document.property, document.sha256),
        onProgress: step(document.file.size),
      });
      if (answer.alreadyPublished) {
        const d = answer.document;
        results.property.alreadyPublished.push({
          filename: document.filename,
          property: d.property,
          existing: { title: d.title, year: d.year, quarter: d.quarter, documentId: d.id },
        });
      } else {
        const d = answer.document;
        results.property.published.push({ filename: document.filename, title: d.title, property: d.property, year: d.year, quarter: d.quarter, documentId: d.id });
      }
    } catch (error) {
      results.property.failed.push({ filename: `${document.property}/${document.filename}`, error: errorText(error) });
    }
    done += document.file.size;
  }

  const pendingUserDocumentIds: number[] = [];
  const listedAsFailed = new Set<string>();
  for (const m of manifests) {
    const size = m.manifest.size + m.files.reduce((n, f) => n + f.size, 0);
    try {
      const answer = await server.bulkUpload({
        manifest: m.manifest,
        documents: m.files,
        emailNotification: options.emailNotification,
        notifyLater: options.emailNotification,
        period: m.period,
        idempotencyKey: m.key,
        onProgress: step(size),
      });
      const told = withRefusals(answer, m.refused);
      results.personal.push(told);
      for (const path of refusedFilesOfFailedRows(m, told)) listedAsFailed.add(path);
      pendingUserDocumentIds.push(...(answer.pendingUserDocumentIds ?? []));
    } catch (error) {
      results.personalFailed.push({ filename: m.path, error: errorText(error) });
    }
    done += size;
  }
  // A manifest with nothing to publish was not sent: its rows are reported as its preview found them.
  for (const m of run.manifests) {
    if (manifests.includes(m)) continue;
    const answer = answerOfUnsent(m);
    results.personal.push(answer);
    for (const path of refusedFilesOfFailedRows(m, answer)) listedAsFailed.add(path);
  }
  results.notSent = run.notSent.filter((file) => !listedAsFailed.has(file.path.normalize('NFC').toLowerCase()));
  options.onProgress?.(1);

  if (options.emailNotification) {
    const body = { documentIds: results.property.published.map((d) => d.documentId), userDocumentIds: pendingUserDocumentIds };
    if (body.documentIds.length + body.userDocumentIds.length === 0) {
      results.notified = 0;
    } else {
      try {
        results.notified = (await server.notify(body)).notified;
      } catch (error) {
        results.notifyError = errorText(error);
      }
    }
  }
  return results;
}

/**
 * The shown paths of the files the browser refused that a row of this answer names: the row
 * fails with the file's own reason, so the file is listed there once, not again as not sent.
 */
function refusedFilesOfFailedRows(m: BatchDryRun['manifests'][number], answer: BulkUploadPersonalDocumentsAnswer): string[] {
  const key = (name: string) => name.normalize('NFC').toLowerCase();
  const refused = new Set(m.refused.map((r) => key(r.name)));
  const folder = folderOf(m.path);
  return answer.failed.filter((f) => refused.has(key(f.filename))).map((f) => key(folder ? `${folder}/${f.filename}` : f.filename));
}

/** What the server would have answered for a manifest with no row to publish, from its plan. */
function answerOfUnsent(m: BatchDryRun['manifests'][number]): BulkUploadPersonalDocumentsAnswer {
  return {
    message: 'Not sent: no row would be published.',
    successful: [],
    failed: m.plan.rows.flatMap((row) =>
      row.outcome === 'publish' || row.outcome === 'already-published' ? [] : [{ filename: row.filename, error: `Row ${row.row}: ${row.error}` }],
    ),
    alreadyPublished: m.plan.rows.flatMap((row) =>
      row.outcome === 'already-published' ? [{ filename: row.filename, userEmail: row.email, title: row.title }] : [],
    ),
    // Refused files are among those not sent; the server would never have received them.
    unprocessed: m.plan.unprocessed.filter((name) => !m.refused.some((r) => r.name === name)),
    totalProcessed: m.plan.rows.length,
  };
}

/** The ids a failed digest still waits for, to send it again from the results. */
export function pendingAnnouncements(results: BatchResults): NotifyDocumentsBody {
  return {
    documentIds: results.property.published.map((d) => d.documentId),
    userDocumentIds: results.personal.flatMap((a) => a.pendingUserDocumentIds ?? []),
  };
}
