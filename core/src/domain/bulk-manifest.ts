// The dry run of a bulk publication of personal documents: one pure function that reads the
// manifest CSV and says, row by row, what publishing it would do. The browser runs it on the
// selection before anything is sent; the server runs it again on the real upload and publishes
// only the rows it calls 'publish', so that the preview and the result cannot disagree.

import { documentCategories, type DocumentCategory } from './enums';
import { fieldMax } from './limits';
import { portalMessages } from './messages';
import {
  csvErrorSentence,
  documentRefusal,
  lineOfUndecodedText,
  originalOfTwins,
  documentIdentityKey,
  periodOf,
  publishingMessages,
  readCsv,
  type CsvDelimiter,
  type CsvEncoding,
  type Period,
  type PublishedIdentity,
} from './publishing';

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
  /** The row names a copy of a file another row publishes to the same investor (originalOfTwins). */
  twinOf: publishingMessages.twinForInvestor,
  titleUsed: 'Title already used by another document for this investor in this period',
  titleTooLong: publishingMessages.titleTooLong,
  descriptionTooLong: `Description is too long (at most ${fieldMax.description} characters)`,
  tagsTooLong: `Tags are too long (at most ${fieldMax.tags} characters)`,
  correctionNoteTooLong: `Correction note is too long (at most ${fieldMax.correctionNote} characters)`,
  /** A deactivated account cannot sign in to read what is published to it. */
  deactivated: (email: string) => `The account ${email} is deactivated: nobody could read this document. Reactivate it first, or remove the row.`,
  /**
   * A row naming a document the investor already has (the same title, category and period): it
   * publishes a corrected version of that document. Names it exactly, as the investor sees it.
   */
  corrects: publishingMessages.corrects,
} as const;

/** A selected file as both sides know it; the browser may not have hashed it yet. */
export interface ManifestFile {
  name: string;
  size: number;
  sha256?: string;
  /**
   * Why the portal refuses this file, from documentRefusal with its first bytes (or the server's
   * own check), computed by the caller that has the bytes. Without it the plan still checks the
   * name and the size.
   */
  refusal?: string;
}

export interface BulkManifestInput {
  /**
   * The manifest's text. A caller holding the file's bytes decodes them with decodeCsvBytes and
   * passes its `encoding` along, which the plan reports back.
   */
  csvText: string;
  /** How csvText was decoded (decodeCsvBytes); 'utf-8' when not given. */
  encoding?: CsvEncoding;
  files: readonly ManifestFile[];
  /** Lower-cased e-mail → user id, for the e-mails of the manifest the caller knows. */
  usersByEmail: ReadonlyMap<string, number>;
  /** User id → sha256 of the contents already published for that investor, when known. */
  publishedHashes?: ReadonlyMap<number, ReadonlySet<string>>;
  /**
   * User id → the documents that investor already has, when known. A row naming one of them (the
   * same title, category and period: documentIdentityKey) corrects that document.
   */
  publishedDocuments?: ReadonlyMap<number, readonly PublishedIdentity[]>;
  /**
   * The ids of usersByEmail whose accounts are deactivated, when known: their rows are refused,
   * since nobody could read what they publish.
   */
  deactivatedUsers?: ReadonlySet<number>;
  /** The batch's period (its quarter folder, or the form's): for rows without a document_date. */
  period?: Period;
  /** The moment of the upload, whose quarter files a row with neither a date nor a batch period. */
  now?: Date;
}

/** An investor a manifest names, as the server's bulk-upload-preview describes them. */
export interface KnownInvestor {
  email: string;
  userId: number;
  /** Which of the asked hashes they already have. */
  publishedSha256: readonly string[];
  documents: readonly PublishedIdentity[];
  active: boolean;
}

/** What planBulkManifest needs of the investors, from bulk-upload-preview's answer: every dry run reads it so. */
export function manifestKnowledgeOf(
  users: readonly KnownInvestor[],
): Pick<BulkManifestInput, 'usersByEmail' | 'publishedHashes' | 'publishedDocuments' | 'deactivatedUsers'> {
  return {
    usersByEmail: new Map(users.map((u) => [u.email.toLowerCase(), u.userId])),
    publishedHashes: new Map(users.map((u) => [u.userId, new Set(u.publishedSha256)])),
    publishedDocuments: new Map(users.map((u) => [u.userId, u.documents])),
    deactivatedUsers: new Set(users.filter((u) => !u.active).map((u) => u.userId)),
  };
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
  /** Where the document is filed (periodOf): its date's quarter, else the batch's, else the upload's. */
  year: number;
  quarter: Period['quarter'];
}

export type ManifestRowPlan =
  | ({
      row: number;
      filename: string;
      outcome: 'publish';
      /**
       * The investor already has this document (the same title in any letter case, category and
       * period): the row publishes a corrected version of it, not a second document. That
       * document; null otherwise.
       */
      corrects: PublishedIdentity | null;
    } & ManifestDocument)
  | ({ row: number; filename: string; outcome: 'already-published'; error: string } & ManifestDocument)
  | {
      row: number;
      /** As the CSV wrote it ('' when absent), so a failure can be shown against its file. */
      filename: string;
      outcome:
        | 'missing-fields'
        | 'user-not-found'
        | 'user-deactivated'
        | 'bad-category'
        | 'bad-field'
        | 'file-missing'
        | 'file-refused'
        | 'duplicate-row'
        | 'title-used';
      error: string;
    };

export type ManifestOutcome = ManifestRowPlan['outcome'];

export interface BulkManifestPlan {
  /**
   * Set when nothing of the manifest may be published, and rows is then empty: it has no data
   * row ('No data found in CSV'), or it cannot be read safely ('Line 2: a quoted field is not
   * closed.'): an unclosed quote, a row with the wrong number of fields, a field spanning lines.
   */
  error: string | null;
  /** The encoding the manifest was read in (as the caller decoded it), to show staff. */
  encoding: CsvEncoding;
  /** The delimiter read from the header line. */
  delimiter: CsvDelimiter;
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

/** The name a manifest cell points at: a folder picker or Windows may add a path before it. */
function baseName(name: string): string {
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  return slash === -1 ? name : name.slice(slash + 1);
}

export type ManifestRecord = Record<string, string | undefined>;

interface ManifestRead {
  delimiter: CsvDelimiter;
  /** Record i is data row i + 2 (the spec's row numbers; blank lines are skipped). */
  records: ManifestRecord[];
  /** 'Line N: …' when the manifest cannot be read safely; records is then empty. */
  error: string | null;
}

/**
 * Reads the manifest, or refuses all of it. A CSV error never costs one row only: an unclosed
 * quote swallows the rows after it into one cell (issue 32: a title holding another investor's
 * e-mail and file), an unquoted comma shifts cells into the wrong columns, and a quote closed a
 * line later carries the next row into a cell with no parser error at all. So any of them, and
 * any line break inside a cell, refuses the whole file with its line.
 */
function readManifest(csvText: string): ManifestRead {
  // One kind of line break: papaparse splits on the kind it guesses, so a file mixing '\r\n' and
  // '\n' (rows pasted from another file) would otherwise read as one long row. No cell of a
  // manifest may hold a line break, so no cell's text changes.
  const read = readCsv(csvText.replace(/\r\n?/g, '\n'));
  const refuse = (line: number, sentence: string): ManifestRead => ({
    delimiter: read.delimiter,
    records: [],
    error: publishingMessages.csvLine(line, sentence),
  });
  const undecoded = lineOfUndecodedText(csvText);
  if (undecoded !== null) return refuse(undecoded, publishingMessages.csv.notText);

  const [header, ...data] = read.records;
  const expected = header?.cells.length ?? 0;
  const shapeProblem = (cells: readonly string[]): string | null => {
    if (cells.some((cell) => /[\r\n]/.test(cell))) return publishingMessages.csv.lineBreakInField;
    if (cells.length > expected) return publishingMessages.csv.tooManyFields(cells.length, expected, read.delimiter);
    if (cells.length < expected) return publishingMessages.csv.tooFewFields(cells.length, expected);
    return null;
  };
  // The first problem in the file; papaparse's on the same line, being the more precise, wins.
  const problems = read.error ? [{ line: read.error.line, sentence: csvErrorSentence(read.error.code) }] : [];
  for (const record of read.records) {
    const sentence = shapeProblem(record.cells);
    if (sentence) {
      problems.push({ line: record.line, sentence });
      break;
    }
  }
  const problem = problems.sort((a, b) => a.line - b.line)[0];
  if (problem) return refuse(problem.line, problem.sentence);
  if (!header) return { delimiter: read.delimiter, records: [], error: null };

  const columns = header.cells.map((cell) => cell.trim().toLowerCase());
  const records = data.map((record) => {
    const fields: ManifestRecord = {};
    columns.forEach((column, index) => {
      fields[column] = record.cells[index];
    });
    return fields;
  });
  return { delimiter: read.delimiter, records, error: null };
}

/**
 * The manifest's data rows as planBulkManifest reads them: record i is CSV row i + 2. None for
 * a manifest it refuses (a CSV error, see planBulkManifest).
 */
export function parseManifest(csvText: string): ManifestRecord[] {
  return readManifest(csvText).records;
}

function emptyCounts(): Record<ManifestOutcome, number> {
  return {
    publish: 0,
    'already-published': 0,
    'missing-fields': 0,
    'user-not-found': 0,
    'user-deactivated': 0,
    'bad-category': 0,
    'bad-field': 0,
    'file-missing': 0,
    'file-refused': 0,
    'duplicate-row': 0,
    'title-used': 0,
  };
}

type RowFailure = Extract<ManifestRowPlan, { error: string }> & { outcome: Exclude<ManifestOutcome, 'publish' | 'already-published'> };
/** A row after its own checks: a failure, or a document still to be weighed against the others. */
type CheckedRow = { failure: RowFailure } | { row: number; filename: string; document: ManifestDocument };

/**
 * Plans a bulk publication. Linear in rows plus files: every lookup is a Map, so a 2,000-row
 * manifest is planned in a few milliseconds.
 */
export function planBulkManifest(input: BulkManifestInput): BulkManifestPlan {
  const manifest = readManifest(input.csvText);
  const encoding = input.encoding ?? 'utf-8';
  const counts = emptyCounts();
  const error = manifest.error ?? (manifest.records.length === 0 ? portalMessages.noDataInCsv : null);
  if (error) {
    const unprocessed = input.files.map((f) => f.name);
    return { error, encoding, delimiter: manifest.delimiter, rows: [], unprocessed, counts, corrections: 0 };
  }
  const now = input.now ?? new Date();

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
  const checked: CheckedRow[] = manifest.records.map((record, index) => {
    // Row 1 is the header, so the first data row is row 2 (spec section 5).
    const row = index + 2;
    const cell = (column: string): string => (record[column] ?? '').trim();
    const email = cell('email');
    const rawFilename = cell('filename');
    const filename = baseName(rawFilename);
    const category = cell('document_category').toLowerCase();
    const title = cell('title');
    const fail = (outcome: RowFailure['outcome'], error: string): CheckedRow => ({
      failure: { row, filename: filename || rawFilename, outcome, error },
    });

    // A row naming a selected file claims it even when it fails, so that the file is reported
    // with the row's error rather than a second time as unprocessed.
    const file = filename ? findFile(filename) : undefined;
    if (file) named.add(file);

    if (!email || !filename || !category || !title) return fail('missing-fields', portalMessages.manifestMissingFields);
    const userId = input.usersByEmail.get(email.toLowerCase());
    if (userId === undefined) return fail('user-not-found', portalMessages.userNotFound);
    if (input.deactivatedUsers?.has(userId)) return fail('user-deactivated', bulkManifestMessages.deactivated(email.toLowerCase()));
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
    // The server's checks, so that a row the plan publishes is one the server takes (issue 32
    // case 5): the caller's refusal (from the file's first bytes) or the name and size.
    const refusal = file.refusal ?? documentRefusal({ name: file.name, size: file.size });
    if (refusal) return { failure: { row, filename, outcome: 'file-refused', error: refusal } };

    const period = periodOf(documentDate || null, input.period ?? null, now);
    return {
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
    };
  });

  // Twins: the same content under several names for one investor is published once, under the
  // name originalOfTwins picks, whatever the order of the rows (issue 32 case 5: 'Report -
  // Copy.pdf' must not win because its row came first).
  const twinNames = new Map<string, Set<string>>();
  for (const item of checked) {
    if ('failure' in item || !item.document.file.sha256) continue;
    const key = `${item.document.userId}\u0000${item.document.file.sha256}`;
    const names = twinNames.get(key) ?? new Set<string>();
    names.add(item.document.file.name);
    twinNames.set(key, names);
  }
  const originalFor = (document: ManifestDocument): string | null => {
    const names = document.file.sha256 ? twinNames.get(`${document.userId}\u0000${document.file.sha256}`) : undefined;
    if (!names || names.size < 2) return null;
    const original = originalOfTwins([...names]);
    return original === document.file.name ? null : original;
  };

  // The documents each investor has, by identity: a row naming one corrects it.
  const published = new Map<string, PublishedIdentity>();
  for (const [userId, documents] of input.publishedDocuments ?? []) {
    for (const document of documents) published.set(documentIdentityKey(userId, document), document);
  }

  const seenForUser = new Set<string>();
  const rows: ManifestRowPlan[] = [];
  let corrections = 0;
  const failed = (failure: RowFailure) => {
    counts[failure.outcome] += 1;
    rows.push(failure);
  };
  for (const item of checked) {
    if ('failure' in item) {
      failed(item.failure);
      continue;
    }
    const { row, filename, document } = item;
    const { userId, file, title } = document;
    const original = originalFor(document);
    if (original) {
      failed({ row, filename, outcome: 'duplicate-row', error: bulkManifestMessages.twinOf(original) });
      continue;
    }
    // One document per investor and file: a second row for the same file publishes nothing.
    const nameKey = `${userId}\u0000name\u0000${file.name}`;
    if (seenForUser.has(nameKey)) {
      failed({ row, filename, outcome: 'duplicate-row', error: bulkManifestMessages.duplicateRow });
      continue;
    }
    seenForUser.add(nameKey);

    if (file.sha256 && input.publishedHashes?.get(userId)?.has(file.sha256)) {
      counts['already-published'] += 1;
      rows.push({ row, filename: file.name, outcome: 'already-published', error: bulkManifestMessages.alreadyPublished, ...document });
      continue;
    }
    // Two different files as one document in one batch would leave the investor guessing which
    // one counts. A document the investor already has (documentIdentityKey: the same title,
    // category and period) is corrected: its new version, not a second "2025 K-1". The same
    // title in another quarter is another document.
    const identity = documentIdentityKey(userId, { title, category: document.documentCategory, year: document.year, quarter: document.quarter });
    if (seenForUser.has(identity)) {
      failed({ row, filename, outcome: 'title-used', error: bulkManifestMessages.titleUsed });
      continue;
    }
    seenForUser.add(identity);
    const corrects = published.get(identity) ?? null;
    counts.publish += 1;
    if (corrects) corrections += 1;
    rows.push({ row, filename: file.name, outcome: 'publish', corrects, ...document });
  }

  const unprocessed = input.files.filter((file) => !named.has(file)).map((file) => file.name);
  return { error: null, encoding, delimiter: manifest.delimiter, rows, unprocessed, counts, corrections };
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
