// What a confirmed batch did, gathered from its calls (results that are what
// happened): the property documents' uploads, each manifest's bulk call, and the one digest.
import type { BulkUploadPersonalDocumentsAnswer } from '@everest/core/contract';
import type { Quarter } from '@everest/core/domain';

export interface PropertyPublished {
  filename: string;
  title: string;
  property: string;
  year: number;
  quarter: Quarter;
  documentId: number;
  /** Set when the file was published as a new version of this document: what it corrected. */
  corrects?: string;
}

export interface PropertyAlreadyPublished {
  filename: string;
  property: string;
  /** The document that already holds this content, in its own title and period. */
  existing: { title: string; year: number; quarter: Quarter; documentId: number };
}

export interface BatchFailure {
  filename: string;
  error: string;
}

export interface BatchResults {
  property: {
    published: PropertyPublished[];
    alreadyPublished: PropertyAlreadyPublished[];
    failed: BatchFailure[];
  };
  /** One answer per manifest sent (a quarter folder has one; a folder of quarters may have several). */
  personal: BulkUploadPersonalDocumentsAnswer[];
  /** A manifest whose bulk call failed as a whole (nothing of it was published). */
  personalFailed: BatchFailure[];
  /** Files the preview did not send, and why (wrong type, too large, twins, outside the layout). */
  notSent: { path: string; reason: string }[];
  /** People e-mailed by the digest; null when no e-mail was asked for. */
  notified: number | null;
  /** The digest's call failed: the documents are published, the e-mail did not go. */
  notifyError: string | null;
}

export interface ResultTotals {
  published: number;
  alreadyPublished: number;
  failed: number;
  notSent: number;
  unprocessed: number;
  totalProcessed: number;
  repeated: boolean;
}

export function resultTotals(results: BatchResults): ResultTotals {
  const personal = results.personal;
  return {
    published: results.property.published.length + personal.reduce((n, a) => n + a.successful.length, 0),
    alreadyPublished: results.property.alreadyPublished.length + personal.reduce((n, a) => n + a.alreadyPublished.length, 0),
    failed: results.property.failed.length + results.personalFailed.length + personal.reduce((n, a) => n + a.failed.length, 0),
    notSent: results.notSent.length,
    unprocessed: personal.reduce((n, a) => n + a.unprocessed.length, 0),
    totalProcessed:
      results.property.published.length +
      results.property.alreadyPublished.length +
      results.property.failed.length +
      personal.reduce((n, a) => n + a.totalProcessed, 0),
    repeated: personal.length > 0 && personal.every((a) => a.repeated === true) && results.property.published.length === 0,
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The results' first sentence: what was published, what already was, what failed. A batch
 * confirmed again says 'Nothing new was published; 12 already published.', never the first
 * batch's '12 documents published'.
 */
export function resultSentence(results: BatchResults): string {
  const t = resultTotals(results);
  const failed = t.failed > 0 ? ` ${t.failed} failed.` : '';
  const again = t.repeated ? 'This batch was already confirmed. ' : '';
  if (t.published === 0) {
    const already = t.alreadyPublished > 0 ? `; ${t.alreadyPublished} already published.` : '.';
    return `${again}Nothing new was published${already}${failed}`;
  }
  const propertyCount = results.property.published.length;
  const personalCount = t.published - propertyCount;
  const split = propertyCount > 0 && personalCount > 0 ? ` (${propertyCount} property, ${personalCount} personal)` : '';
  const already = t.alreadyPublished > 0 ? ` ${t.alreadyPublished} already published.` : '';
  return `${plural(t.published, 'document', 'documents')} published${split}.${already}${failed}`;
}

/** The e-mail's sentence, when one was asked for. */
export function notifiedSentence(results: BatchResults): string | null {
  if (results.notifyError) return `The documents are published, but the e-mail could not be sent: ${results.notifyError}`;
  if (results.notified === null) return null;
  if (results.notified === 0) return 'Nobody was e-mailed.';
  return `${plural(results.notified, 'person was', 'people were')} e-mailed, one e-mail each listing all of their new documents.`;
}
