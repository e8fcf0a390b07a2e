// The dry run of a bulk publication of personal documents: one pure function that reads the
// manifest CSV and says, row by row, what publishing it would do. The browser runs it on the
// selection before anything is sent; the server runs it again on the real upload and publishes
// only the rows it calls 'publish', so that the preview and the result cannot disagree.

import Papa from 'papaparse';
import { documentCategories, type DocumentCategory } from './enums';
import { fieldMax } from './limits';
import { portalMessages } from './messages';

/** The manifest's required columns (spec section 5), then the optional ones. */
export const manifestRequiredColumns = ['email', 'filename', 'document_category', 'title'] as const;
export const manifestOptionalColumns = ['description', 'document_date', 'tags', 'correction_note'] as const;

/** Row sentences beyond the spec's three (which live in portalMessages). */
export const bulkManifestMessages = {
  fileMissing: 'File not found among the selected files',
  badCategory: `Invalid document category (${documentCategories.join(', ')})`,
  badDocumentDate: 'Invalid document date (use YYYY-MM-DD)',
  alreadyPublished: 'Already published for this investor with the same content',
  duplicateRow: 'Listed more than once for this investor',
  titleUsed: 'Title already used by another document for this investor',
  titleTooLong: `Title is too long (at most ${fieldMax.title} characters)`,
  descriptionTooLong: `Description is too long (at most ${fieldMax.description} characters)`,
  tagsTooLong: `Tags are too long (at most ${fieldMax.tags} characters)`,
  correctionNoteTooLong: `Correction note is too long (at most ${fieldMax.correctionNote} characters)`,
  /** A row whose title the investor already has: it publishes a corrected version of that document. */
  corrects: (title: string) => `corrects ${title}`,
} as const;

/** A selected file as both sides know it; the browser may not have hashed it yet. */
export interface ManifestFile {
  name: string;
  size: number;
  sha256?: string;
}

export interface BulkManifestInput {
  csvText: string;
  files: readonly ManifestFile[];
  /** Lower-cased e-mail → user id, for the e-mails of the manifest the caller knows. */
  usersByEmail: ReadonlyMap<string, number>;
  /** User id → sha256 of the contents already published for that investor, when known. */
  publishedHashes?: ReadonlyMap<number, ReadonlySet<string>>;
  /**
   * User id → lower-cased titles of the documents that investor already has, when known. A row
   * with one of them corrects that document (issue 21).
   */
  publishedTitles?: ReadonlyMap<number, ReadonlySet<string>>;
}

/** What the row would publish, with its fields cleaned. */
export interface ManifestDocument {
  userId: number;
  email: string;
  file: ManifestFile;
  documentCategory: DocumentCategory;
  title: string;
  description: string;
  documentDate: string | null;
  tags: string;
  /** The optional `correction_note` column: why, for the e-mail of a correction ('' for none). */
  correctionNote: string;
}

export type ManifestRowPlan =
  | ({
      row: number;
      filename: string;
      outcome: 'publish';
      /**
       * The investor already has a document of this title (any letter case): the row publishes
       * a corrected version of it, not a second document. The row's title then; null otherwise.
       */
      corrects: string | null;
    } & ManifestDocument)
  | ({ row: number; filename: string; outcome: 'already-published'; error: string } & ManifestDocument)
  | {
      row: number;
      /** As the CSV wrote it ('' when absent), so a failure can be shown against its file. */
      filename: string;
      outcome:
        | 'missing-fields'
        | 'user-not-found'
        | 'bad-category'
        | 'bad-field'
        | 'file-missing'
        | 'duplicate-row'
        | 'title-used';
      error: string;
    };

export type ManifestOutcome = ManifestRowPlan['outcome'];

export interface BulkManifestPlan {
  /** Set when the manifest has no data row: 'No data found in CSV'; rows is then empty. */
  error: string | null;
  rows: ManifestRowPlan[];
  /** Selected files no row names (and not claimed by any row), in selection order. */
  unprocessed: string[];
  counts: Record<ManifestOutcome, number>;
  /** How many of the 'publish' rows correct a document the investor has. */
  corrections: number;
}

const dateShape = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDate(text: string): boolean {
  if (!dateShape.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * The delimiter from the header line alone: the header holds only column names, so a ';' in a
 * title or tags cell can never make a comma file look like a semicolon one (as papaparse's
 * guess over the whole text can). Excel in European locales saves ';' files.
 */
function delimiterOf(text: string): string {
  const end = text.search(/\r?\n|\r/);
  const header = end === -1 ? text : text.slice(0, end);
  return !header.includes(',') && header.includes(';') ? ';' : ',';
}

/** The name a manifest cell points at: a folder picker or Windows may add a path before it. */
function baseName(name: string): string {
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  return slash === -1 ? name : name.slice(slash + 1);
}

export type ManifestRecord = Record<string, string | undefined>;

/** The manifest's data rows as planBulkManifest reads them: record i is CSV row i + 2. */
export function parseManifest(csvText: string): ManifestRecord[] {
  // String input: papaparse strips the BOM itself, but a caller may hand text decoded without
  // stripping, and a BOM left on 'email' would make the first column unknown.
  const text = csvText.replace(/^\uFEFF/, '');
  return Papa.parse<ManifestRecord>(text, {
    header: true,
    delimiter: delimiterOf(text),
    // 'greedy' also drops lines of only delimiters (",,,"), which spreadsheets write at the end.
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim().toLowerCase(),
  }).data;
}

function emptyCounts(): Record<ManifestOutcome, number> {
  return {
    publish: 0,
    'already-published': 0,
    'missing-fields': 0,
    'user-not-found': 0,
    'bad-category': 0,
    'bad-field': 0,
    'file-missing': 0,
    'duplicate-row': 0,
    'title-used': 0,
  };
}

/**
 * Plans a bulk publication. Linear in rows plus files: every lookup is a Map, so a 2,000-row
 * manifest is planned in a few milliseconds.
 */
export function planBulkManifest(input: BulkManifestInput): BulkManifestPlan {
  const records = parseManifest(input.csvText);

  const counts = emptyCounts();
  if (records.length === 0) {
    return { error: portalMessages.noDataInCsv, rows: [], unprocessed: input.files.map((f) => f.name), counts, corrections: 0 };
  }

  // Exact names first; the lower-cased name only when it is not ambiguous, because a CSV
  // typed by hand often differs from the file in letter case alone. Both in NFC: a Mac spells
  // 'é' in a file's name as 'e' plus an accent, a spreadsheet on Windows as one letter.
  const byName = new Map<string, ManifestFile>();
  const byLowerName = new Map<string, ManifestFile | null>();
  for (const file of input.files) {
    const name = file.name.normalize('NFC');
    if (!byName.has(name)) byName.set(name, file);
    const lower = name.toLowerCase();
    byLowerName.set(lower, byLowerName.has(lower) ? null : file);
  }
  const findFile = (name: string): ManifestFile | undefined => {
    const nfc = name.normalize('NFC');
    return byName.get(nfc) ?? byLowerName.get(nfc.toLowerCase()) ?? undefined;
  };

  const named = new Set<ManifestFile>();
  // One document per investor and content: the same file twice, or (when hashed) the same
  // content under two names, publishes once.
  const seenForUser = new Set<string>();
  const rows: ManifestRowPlan[] = [];
  let corrections = 0;

  records.forEach((record, index) => {
    // Row 1 is the header, so the first data row is row 2 (spec section 5).
    const row = index + 2;
    const cell = (column: string): string => (record[column] ?? '').trim();
    const email = cell('email');
    const rawFilename = cell('filename');
    const filename = baseName(rawFilename);
    const category = cell('document_category').toLowerCase();
    const title = cell('title');
    const fail = (outcome: Exclude<ManifestOutcome, 'publish' | 'already-published'>, error: string) => {
      counts[outcome] += 1;
      rows.push({ row, filename: filename || rawFilename, outcome, error });
    };

    // A row naming a selected file claims it even when it fails, so that the file is reported
    // with the row's error rather than a second time as unprocessed.
    const file = filename ? findFile(filename) : undefined;
    if (file) named.add(file);

    if (!email || !filename || !category || !title) {
      fail('missing-fields', portalMessages.manifestMissingFields);
      return;
    }
    const userId = input.usersByEmail.get(email.toLowerCase());
    if (userId === undefined) {
      fail('user-not-found', portalMessages.userNotFound);
      return;
    }
    if (!(documentCategories as readonly string[]).includes(category)) {
      fail('bad-category', bulkManifestMessages.badCategory);
      return;
    }
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
    if (badField) {
      fail('bad-field', badField);
      return;
    }
    if (!file) {
      fail('file-missing', bulkManifestMessages.fileMissing);
      return;
    }
    const nameKey = `${userId}\u0000name\u0000${file.name}`;
    const hashKey = file.sha256 ? `${userId}\u0000sha\u0000${file.sha256}` : null;
    if (seenForUser.has(nameKey) || (hashKey && seenForUser.has(hashKey))) {
      fail('duplicate-row', bulkManifestMessages.duplicateRow);
      return;
    }
    seenForUser.add(nameKey);
    if (hashKey) seenForUser.add(hashKey);

    const document: ManifestDocument = {
      userId,
      email: email.toLowerCase(),
      file,
      documentCategory: category as DocumentCategory,
      title,
      description,
      documentDate: documentDate || null,
      tags,
      correctionNote,
    };
    if (file.sha256 && input.publishedHashes?.get(userId)?.has(file.sha256)) {
      counts['already-published'] += 1;
      rows.push({
        row,
        filename: file.name,
        outcome: 'already-published',
        error: bulkManifestMessages.alreadyPublished,
        ...document,
      });
      return;
    }
    // Two different files under one title in one batch would leave the investor guessing which
    // one counts. A title the investor already has is a correction of that document (issue 21):
    // its new version, not a second "2025 K-1".
    const titleKey = `${userId}\u0000title\u0000${title.toLowerCase()}`;
    if (seenForUser.has(titleKey)) {
      fail('title-used', bulkManifestMessages.titleUsed);
      return;
    }
    seenForUser.add(titleKey);
    const corrects = input.publishedTitles?.get(userId)?.has(title.toLowerCase()) ? title : null;
    counts.publish += 1;
    if (corrects) corrections += 1;
    rows.push({ row, filename: file.name, outcome: 'publish', corrects, ...document });
  });

  const unprocessed = input.files.filter((file) => !named.has(file)).map((file) => file.name);
  return { error: null, rows, unprocessed, counts, corrections };
}

/** The lower-cased e-mails a manifest names, so the browser asks the server only for those. */
export function manifestEmails(csvText: string): string[] {
  const emails = new Set<string>();
  for (const record of parseManifest(csvText)) {
    const email = (record.email ?? '').trim().toLowerCase();
    if (email) emails.add(email);
  }
  return [...emails];
}
