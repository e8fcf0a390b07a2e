// The dry run of a bulk publication of personal documents: one pure function that reads the
// manifest CSV and says, row by row, what publishing it would do. The browser runs it on the
// selection before anything is sent; the server runs it again on the real upload and publishes
// only the rows it calls 'publish', so that the preview and the result cannot disagree. Each row
// is first decided on its own (bulk-manifest-row.ts), then weighed against the other rows and
// the investor's documents here; the columns, sentences and shapes are in bulk-manifest-types.ts.

import { portalMessages } from './messages';
import {
  csvErrorSentence,
  documentIdentityKey,
  lineOfUndecodedText,
  originalOfTwins,
  publishingMessages,
  readCsv,
  type CsvDelimiter,
  type PublishedIdentity,
} from './publishing';
import { checkManifestRow, manifestFileFinder, type CheckedRow, type RowFailure } from './bulk-manifest-row';
import {
  bulkManifestMessages,
  type BulkManifestInput,
  type BulkManifestPlan,
  type ManifestDocument,
  type ManifestFile,
  type ManifestOutcome,
  type ManifestRecord,
  type ManifestRowPlan,
} from './bulk-manifest-types';

export * from './bulk-manifest-types';

interface ManifestRead {
  delimiter: CsvDelimiter;
  /** Record i is data row i + 2 (the spec's row numbers; blank lines are skipped). */
  records: ManifestRecord[];
  /** 'Line N: …' when the manifest cannot be read safely; records is then empty. */
  error: string | null;
}

/**
 * Reads the manifest, or refuses all of it. A CSV error never costs one row only: an unclosed
 * quote swallows the rows after it into one cell (a title that holds another investor's e-mail
 * and file, published to the wrong reader), an unquoted comma shifts cells into the wrong columns, and a quote closed a
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

  const findFile = manifestFileFinder(input.files);
  const named = new Set<ManifestFile>();
  const checked: CheckedRow[] = manifest.records.map((record, index) => {
    const { checked: row, claimed } = checkManifestRow(record, index, {
      findFile,
      usersByEmail: input.usersByEmail,
      deactivatedUsers: input.deactivatedUsers,
      period: input.period ?? null,
      now,
    });
    if (claimed) named.add(claimed);
    return row;
  });

  // Twins: the same content under several names for one investor is published once, under the
  // name originalOfTwins picks, whatever the order of the rows ('Report - Copy.pdf' must not
  // win because its row came first).
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
