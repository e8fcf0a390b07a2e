// One row of a bulk publication's manifest, on its own: its cells cleaned, its investor, its
// category, its fields' lengths and date, and its file found among the selection and checked as
// the server checks it. What a row is weighed against the other rows (twins, a file or a title
// listed twice, a document the investor has) is planBulkManifest's, in bulk-manifest.ts.

import { documentCategories, type DocumentCategory } from './enums';
import { fieldMax } from './limits';
import { portalMessages } from './messages';
import { documentRefusal, periodOf, type Period } from './publishing';
import {
  bulkManifestMessages,
  type ManifestDocument,
  type ManifestFile,
  type ManifestOutcome,
  type ManifestRecord,
  type ManifestRowPlan,
} from './bulk-manifest-types';

export type RowFailure = Extract<ManifestRowPlan, { error: string }> & { outcome: Exclude<ManifestOutcome, 'publish' | 'already-published'> };
/** A row after its own checks: a failure, or a document still to be weighed against the others. */
export type CheckedRow = { failure: RowFailure } | { row: number; filename: string; document: ManifestDocument };

/** What a row is checked against: the selection and the investors the caller knows. */
export interface RowContext {
  findFile: (name: string) => ManifestFile | undefined;
  usersByEmail: ReadonlyMap<string, number>;
  deactivatedUsers?: ReadonlySet<number>;
  /** The batch's period, for a row without a document_date. */
  period: Period | null;
  now: Date;
}

const dateShape = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDate(text: string): boolean {
  if (!dateShape.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The name a manifest cell points at: a folder picker or Windows may add a path before it. */
function baseName(name: string): string {
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  return slash === -1 ? name : name.slice(slash + 1);
}

/**
 * Finds a selected file by the name a row gives. Exact names first; the lower-cased name only
 * when it is not ambiguous, because a CSV typed by hand often differs from the file in letter
 * case alone. Both in NFC: a Mac spells 'é' in a file's name as 'e' plus an accent, a
 * spreadsheet on Windows as one letter.
 */
export function manifestFileFinder(files: readonly ManifestFile[]): (name: string) => ManifestFile | undefined {
  const byName = new Map<string, ManifestFile>();
  const byLowerName = new Map<string, ManifestFile | null>();
  for (const file of files) {
    const name = file.name.normalize('NFC');
    if (!byName.has(name)) byName.set(name, file);
    const lower = name.toLowerCase();
    byLowerName.set(lower, byLowerName.has(lower) ? null : file);
  }
  return (name: string): ManifestFile | undefined => {
    const nfc = name.normalize('NFC');
    return byName.get(nfc) ?? byLowerName.get(nfc.toLowerCase()) ?? undefined;
  };
}

/**
 * Decides one data row (record `index` of the manifest) by its own cells. `claimed` is the
 * selected file the row names, even when the row fails, so that the file is reported with the
 * row's error rather than a second time as unprocessed.
 */
export function checkManifestRow(
  record: ManifestRecord,
  index: number,
  context: RowContext,
): { checked: CheckedRow; claimed: ManifestFile | undefined } {
  // Row 1 is the header, so the first data row is row 2 (spec section 5).
  const row = index + 2;
  const cell = (column: string): string => (record[column] ?? '').trim();
  const email = cell('email');
  const rawFilename = cell('filename');
  const filename = baseName(rawFilename);
  const category = cell('document_category').toLowerCase();
  const title = cell('title');
  const file = filename ? context.findFile(filename) : undefined;
  const fail = (outcome: RowFailure['outcome'], error: string) => ({
    checked: { failure: { row, filename: filename || rawFilename, outcome, error } },
    claimed: file,
  });

  if (!email || !filename || !category || !title) return fail('missing-fields', portalMessages.manifestMissingFields);
  const userId = context.usersByEmail.get(email.toLowerCase());
  if (userId === undefined) return fail('user-not-found', portalMessages.userNotFound);
  if (context.deactivatedUsers?.has(userId)) return fail('user-deactivated', bulkManifestMessages.deactivated(email.toLowerCase()));
  if (!(documentCategories as readonly string[]).includes(category)) return fail('bad-category', bulkManifestMessages.badCategory);
  const description = cell('description');
  const documentDate = cell('document_date');
  const tags = cell('tags');
  const correctionNote = cell('correction_note');
  const badField =
    title.length > fieldMax.title
      ? bulkManifestMessages.titleTooLong
      : description.length > fieldMax.description
        ? bulkManifestMessages.descriptionTooLong
        : tags.length > fieldMax.tags
          ? bulkManifestMessages.tagsTooLong
          : correctionNote.length > fieldMax.correctionNote
            ? bulkManifestMessages.correctionNoteTooLong
            : documentDate && !isCalendarDate(documentDate)
              ? bulkManifestMessages.badDocumentDate
              : null;
  if (badField) return fail('bad-field', badField);
  if (!file) return fail('file-missing', bulkManifestMessages.fileMissing);
  // The server's checks, so that a row the plan publishes is one the server takes rather than
  // one that fails at upload after the preview said it would publish: the caller's refusal
  // (from the file's first bytes) or the name and size.
  const refusal = file.refusal ?? documentRefusal({ name: file.name, size: file.size });
  if (refusal) return { checked: { failure: { row, filename, outcome: 'file-refused', error: refusal } }, claimed: file };

  const period = periodOf(documentDate || null, context.period, context.now);
  return {
    checked: {
      row,
      filename,
      document: {
        userId,
        email: email.toLowerCase(),
        file,
        documentCategory: category as DocumentCategory,
        title,
        description,
        documentDate: documentDate || null,
        tags,
        correctionNote,
        year: period.year,
        quarter: period.quarter,
      },
    },
    claimed: file,
  };
}
