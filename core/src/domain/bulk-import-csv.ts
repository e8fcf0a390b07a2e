// The bulk user import's CSV, read and checked by one function that the browser, the desktop
// app and the server all run, so that a row the preview calls valid is a row the import takes.
// The server receives the rows as JSON (the contract's csvData), each with the line of the file
// it came from, and checks them again with `validateBulkImportRows`, the second half of it.

import {
  bulkImportCsvRow,
  bulkImportRow,
  type BulkImportCsvRow,
  type BulkImportRow,
  type ImportRowError,
} from '../contract/schemas/bulk-import';
import type { Role } from './enums';
import { megabyte } from './limits';
import { defaultImportRole, firstCsvDataRow, importColumns, maxImportCsvBytes, maxImportRows, type ImportColumn } from './csv-columns';
import { portalMessages } from './messages';
import { decodeCsvBytes, lineOfUndecodedText, readCsv, type CsvDelimiter, type CsvEncoding, type CsvRecord } from './publishing';

/** File-level and row sentences beyond the contract schema's own. */
export const bulkImportCsvMessages = {
  tooLarge: `The CSV file is larger than ${maxImportCsvBytes / megabyte} MB. Please split it into smaller files.`,
  noEmailColumn: 'The CSV file has no email column. Please start from the template.',
  tooManyRows: `The CSV file has more than ${maxImportRows.toLocaleString('en-US')} users. Please split it into smaller files.`,
  duplicateEmail: (firstLine: number) => `This email appears more than once in the file (first on line ${firstLine}).`,
  unknownProperties: (names: readonly string[]) =>
    `Unknown property ${names.map((n) => `"${n}"`).join(', ')}: property names must match exactly.`,
} as const;

export interface BulkImportCsvOptions {
  /** The role of a row whose role cell is empty. */
  defaultRole?: Role;
  /**
   * The names of the properties that may be assigned (investor-relations ones). When given, a
   * row naming any other property is a row error; when omitted, names are not checked here.
   */
  knownPropertyNames?: readonly string[];
}

/**
 * A valid row as the import applies it, with the file line it came from. `roleGiven` is false
 * when the role cell was empty: the default role is for new users, and an existing user's role
 * stays as it is (an empty cell leaves a field as it is).
 */
export type ValidImportRow = BulkImportRow & { line: number; roleGiven: boolean };

export interface BulkImportRowsCheck {
  valid: ValidImportRow[];
  errors: ImportRowError[];
}

export interface BulkImportCsvParse {
  /** A sentence when the file as a whole cannot be imported; then rows and errors are empty. */
  error: string | null;
  encoding: CsvEncoding;
  delimiter: CsvDelimiter;
  /** The valid rows in the contract's csvData shape (each with its line), ready to send. */
  csvData: BulkImportCsvRow[];
  /** Every data row as read, valid or not, in the same shape (for a caller that lets the server judge). */
  rows: BulkImportCsvRow[];
  /** The same rows as the import reads them (trimmed, role resolved, names split). */
  valid: ValidImportRow[];
  /** Invalid rows with their file line (the header is line 1; blank lines count). */
  errors: ImportRowError[];
}

// Header cells compare without case, spaces, '_' or '-': 'First Name', 'first_name' and
// 'FIRSTNAME' all mean firstName. A few names people type for the same columns are accepted too.
const headerKey = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');
const columnByKey = new Map<string, ImportColumn>([
  ...importColumns.map((column) => [headerKey(column), column] as const),
  ['emailaddress', 'email'],
  ['properties', 'propertyAccess'],
  ['property', 'propertyAccess'],
  ['address', 'streetAddress'],
  ['street', 'streetAddress'],
  ['zip', 'zipCode'],
  ['postalcode', 'zipCode'],
]);

function utf8Length(text: string): number {
  // Most files are far below the limit: skip the encoding when even 3 bytes a character fits.
  if (text.length * 3 <= maxImportCsvBytes) return text.length;
  return new TextEncoder().encode(text).byteLength;
}

/** The rows of a CSV as the contract's csvData, each with its file line; header names matched leniently. */
function toCsvRows(records: readonly CsvRecord[]): { rows: BulkImportCsvRow[]; error: string | null } {
  const [header, ...data] = records;
  if (!header) return { rows: [], error: portalMessages.noDataInCsv };
  const columns = header.cells.map((cell) => columnByKey.get(headerKey(cell)));
  if (!columns.includes('email')) return { rows: [], error: bulkImportCsvMessages.noEmailColumn };
  if (data.length === 0) return { rows: [], error: portalMessages.noDataInCsv };
  // The import call takes at most this many rows (the contract's csvData): say so before sending.
  if (data.length > maxImportRows) return { rows: [], error: bulkImportCsvMessages.tooManyRows };
  const rows = data.map((record) => {
    const row: BulkImportCsvRow = { line: record.line };
    columns.forEach((column, index) => {
      const value = record.cells[index]?.trim();
      // An empty cell is left out: on an update it leaves the field as it is, and the rows of a
      // 5 MB file stay small enough as JSON.
      if (column && value) row[column] = value;
    });
    return row;
  });
  return { rows, error: null };
}

/** A row error's value is cut to this many characters: it names the cell, it need not hold it. */
export const shownValueMax = 60;

/**
 * A cell's value as a row error shows it: control characters and bidirectional marks as '�'
 * (they would hide or reorder what is shown), cut at `shownValueMax` characters with '…'.
 * Undefined for an empty cell: there is nothing to show.
 */
export function shownImportValue(value: unknown): string | undefined {
  const text = Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : undefined;
  if (text === undefined || text.trim() === '') return undefined;
  const characters = Array.from(text.replace(/[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu, '\uFFFD'));
  return characters.length > shownValueMax ? `${characters.slice(0, shownValueMax - 1).join('')}…` : characters.join('');
}

/** The row error of a failed parse: the first issue's sentence, with the cell it is about. */
function rowError(line: number, input: BulkImportCsvRow, error: { issues: readonly { message: string; path: readonly PropertyKey[] }[] }): ImportRowError {
  const issue = error.issues[0];
  const field = issue?.path[0];
  const value = typeof field === 'string' && field !== 'line' ? shownImportValue(input[field as keyof BulkImportCsvRow]) : undefined;
  return { row: line, error: issue?.message ?? 'This row is not valid.', ...(value === undefined ? {} : { value }) };
}

/**
 * Checks rows as the import applies them: the contract's row rules, the same e-mail twice in one
 * list, and (when the names are known) property names matching exactly. A row without a line
 * is numbered by its place, the first data row being 2 as in the spec. The rows are of the
 * contract's csvData shape: the server's route has parsed them with it, parseBulkImportCsv checks
 * its own (so 10,000 rows are not parsed by the same schema twice).
 */
export function validateBulkImportRows(
  rows: readonly BulkImportCsvRow[],
  options: BulkImportCsvOptions = {},
): BulkImportRowsCheck {
  const schema = bulkImportRow(options.defaultRole ?? defaultImportRole);
  const known = options.knownPropertyNames ? new Set(options.knownPropertyNames) : null;
  const firstLineOf = new Map<string, number>();
  const valid: ValidImportRow[] = [];
  const errors: ImportRowError[] = [];
  rows.forEach((input, index) => {
    const line = input.line ?? index + firstCsvDataRow;
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      errors.push(rowError(line, input, parsed.error));
      return;
    }
    const row = parsed.data;
    const firstLine = firstLineOf.get(row.email);
    if (firstLine !== undefined) {
      errors.push({ row: line, error: bulkImportCsvMessages.duplicateEmail(firstLine), value: shownImportValue(input.email) ?? row.email });
      return;
    }
    firstLineOf.set(row.email, line);
    if (known) {
      const unknown = row.propertyAccess.filter((name) => !known.has(name));
      if (unknown.length > 0) {
        errors.push({ row: line, error: bulkImportCsvMessages.unknownProperties(unknown) });
        return;
      }
    }
    valid.push({ ...row, line, roleGiven: typeof input.role === 'string' && input.role.trim() !== '' });
  });
  return { valid, errors };
}

/**
 * Reads a bulk user import CSV (bytes as read from the file, or text) and checks every row.
 * Encoding and delimiter are detected and reported so the preview can say what it read.
 */
export function parseBulkImportCsv(input: Uint8Array | string, options: BulkImportCsvOptions = {}): BulkImportCsvParse {
  const size = typeof input === 'string' ? utf8Length(input) : input.byteLength;
  const empty = { csvData: [], rows: [], valid: [], errors: [] };
  if (size > maxImportCsvBytes) return { error: bulkImportCsvMessages.tooLarge, encoding: 'utf-8', delimiter: ',', ...empty };

  const decoded = typeof input === 'string' ? { text: input, encoding: 'utf-8' as const } : decodeCsvBytes(input);
  // Bytes that are not UTF-8 after a UTF-8 BOM: a damaged file, whose names would be garbled.
  if (typeof input !== 'string' && lineOfUndecodedText(decoded.text) !== null) {
    return { error: portalMessages.bulkPreviewFailed, encoding: decoded.encoding, delimiter: ',', ...empty };
  }
  // readCsv drops a BOM that text handed over by a caller may still carry.
  const { delimiter, records } = readCsv(decoded.text);
  const { rows, error } = toCsvRows(records);
  if (error) return { error, encoding: decoded.encoding, delimiter, ...empty };

  // The contract's cell limits first: rows failing them are row errors, not part of csvData.
  const shapeErrors: ImportRowError[] = [];
  const shaped = rows.filter((row) => {
    const cells = bulkImportCsvRow.safeParse(row);
    if (!cells.success) shapeErrors.push(rowError(row.line ?? 0, row, cells.error));
    return cells.success;
  });
  const checked = validateBulkImportRows(shaped, options);
  const valid = checked.valid;
  const errors = [...shapeErrors, ...checked.errors].sort((a, b) => a.row - b.row);
  const validLines = new Set(valid.map((row) => row.line));
  return {
    error: null,
    encoding: decoded.encoding,
    delimiter,
    csvData: rows.filter((row) => row.line !== undefined && validLines.has(row.line)),
    rows,
    valid,
    errors,
  };
}
