// The publishing rules every path shares (issue 32): single uploads, the browser's bulk upload,
// the desktop's Folder Drop and its watched-folder sync, and the server that takes them all. A
// dry run that applies these rules promises only what the server will then do, so none of them
// is restated elsewhere: where a document goes, what makes two publications the same, which
// quarter it is filed under, which files the portal refuses, and how a CSV file is read.

import Papa from 'papaparse';
import { quarters, type DocumentCategory, type Quarter } from './enums';
import { formatDate } from './format';
import { fieldMax, megabyte } from './limits';
import { timeZone } from './dates-and-periods';
import { acceptedDocumentExtensions, documentExtensionOf, maxDocumentBytes, type DocumentExtension } from './document-files';

// ---- Destination and identity -------------------------------------------------------------

/** Who a document is published to: every reader of a property (or General), or one investor. */
export type Destination = { kind: 'property'; property: string } | { kind: 'investor'; email: string };

/** How people read names and e-mails: NFC (macOS writes 'é' as 'e' + accent), trimmed, any case. */
function comparable(text: string): string {
  return text.normalize('NFC').trim().toLowerCase();
}

/** 'property:heartland plaza' / 'investor:a@b.com' — NFC, trimmed, lower-cased. */
export function destinationKey(destination: Destination): string {
  return destination.kind === 'property'
    ? `property:${comparable(destination.property)}`
    : `investor:${comparable(destination.email)}`;
}

/**
 * A publication's identity: its content AND its destination (issue 32 case 2). The same bytes
 * for two properties are two documents, and a replace may only touch its own destination's.
 */
export function publicationKey(destination: Destination, sha256: string): string {
  return `${destinationKey(destination)}#${sha256.trim().toLowerCase()}`;
}

/**
 * What a publication is the same document as (a correction of it, its next version) rather than a
 * new document: the same destination, the same title (as people read it: NFC, trimmed, any case),
 * the same category (personal documents have one; property documents null) and the same period.
 * Accountants reuse a title every quarter ("Quarterly Distribution Statement"): a row of another
 * quarter is a new document, never a correction of the last one. Every path (the dry runs, the
 * server's uploads, the sync) decides with this one rule.
 */
export interface DocumentIdentity {
  title: string;
  category: DocumentCategory | null;
  year: number;
  quarter: Quarter;
}

/** The key of a document's identity under its owner (a destinationKey, or an investor's id). */
export function documentIdentityKey(owner: string | number, identity: DocumentIdentity): string {
  return [owner, comparable(identity.title), identity.category ?? '', identity.year, identity.quarter].join('\u0000');
}

/** True when both name the same document of one destination (see DocumentIdentity). */
export function isSameDocument(a: DocumentIdentity, b: DocumentIdentity): boolean {
  return documentIdentityKey('', a) === documentIdentityKey('', b);
}

/** A document already published, as a dry run names the one a row would correct. */
export interface PublishedIdentity extends DocumentIdentity {
  /** When its first version was published (ISO 8601). */
  firstPublishedAt: string;
  /** The document's id, where the caller knows it. */
  documentId?: number;
}

// ---- Sentences ----------------------------------------------------------------------------

/** What a document file's content must be for each accepted extension. */
export type DocumentContainer = 'pdf' | 'ole' | 'zip';

export const documentContainers: Record<DocumentExtension, DocumentContainer> = {
  '.pdf': 'pdf',
  '.doc': 'ole',
  '.xls': 'ole',
  '.docx': 'zip',
  '.xlsx': 'zip',
};

const documentKindLabels: Record<DocumentExtension, string> = {
  '.pdf': 'a PDF document',
  '.doc': 'a Word document',
  '.docx': 'a Word document',
  '.xls': 'an Excel workbook',
  '.xlsx': 'an Excel workbook',
};

/** Every sentence the dry runs and the server share (size, type, title length, twin, CSV…). */
export const publishingMessages = {
  wrongType: `Not a document type the portal accepts (${acceptedDocumentExtensions.map((e) => e.slice(1)).join(', ')}).`,
  empty: 'The file is empty.',
  tooLarge: `The file is larger than ${maxDocumentBytes / megabyte} MB, the most the portal accepts.`,
  /** The first bytes say otherwise than the name (a text file named .pdf, a zip named .doc). */
  contentNotAsNamed: (extension: DocumentExtension) =>
    `The file's content is not ${documentKindLabels[extension]}, though its name ends in ${extension}.`,
  titleTooLong: `Title is too long (at most ${fieldMax.title} characters)`,
  /** A property document is titled by its file name. */
  fileNameTitleTooLong: `The file name is too long to be the document's title (at most ${fieldMax.title} characters before the extension): shorten it.`,
  fileNameNoTitle: "The file name gives no title: name the file as the document's title.",
  /**
   * What a publication corrects (a document of its destination with the same title, category
   * and period): named exactly, as its readers know it.
   */
  corrects: (document: PublishedIdentity) =>
    `corrects ${document.title} (${document.quarter} ${document.year}, first published ${formatDate(document.firstPublishedAt, 'earlier')})`,
  /** A second name for content the same investor gets under `original`. */
  twinForInvestor: (original: string) => `Same content as ${original} for this investor (the copy is not published)`,
  /** A second name for content the same property gets under `original`. */
  twinForProperty: (original: string) => `Same content as ${original} for this property (the copy is not published)`,
  /** A property document only administrators could read (see hasNoReader). */
  noReader: 'No investor can see this document',
  /** Why no investor can see a document of `property`, after noReader. */
  noReaderBecause: (property: string, investorRelations: boolean) =>
    investorRelations
      ? `No active investor has access to ${property}: only administrators will see a document filed under it.`
      : `${property} is not shown to investors: only administrators will see a document filed under it.`,
  /** A CSV that cannot be read safely: the file's line (the header is line 1) and why. */
  /** A document not finished yet: its end is missing (issue 34). */
  incomplete: {
    pdf: "The PDF does not end with its end-of-file mark (%%EOF): it is still being written, or it is damaged.",
    zip: 'The file does not end as a Word or Excel file does: it is still being written, or it is damaged.',
    ole: 'The file does not end as a Word or Excel file does: it is still being written, or it is damaged.',
  },
  csvLine: (line: number, sentence: string) => `Line ${line}: ${sentence}`,
  csv: {
    quoteNotClosed: 'a quoted field is not closed.',
    textAfterQuote: 'a quoted field has text after its closing quote.',
    lineBreakInField: 'a field runs onto the next line; a manifest cell cannot hold a line break (is a quote missing?).',
    tooManyFields: (found: number, expected: number, delimiter: CsvDelimiter) =>
      `this row has ${found} fields but the header has ${expected}; a cell that holds ${delimiter === '\t' ? 'a tab' : `"${delimiter}"`} must be in quotes.`,
    tooFewFields: (found: number, expected: number) => `this row has ${found} fields but the header has ${expected}.`,
    noDelimiter: 'the columns are not separated by commas, semicolons or tabs.',
    notText: 'this line holds characters that are not text; save the file as "CSV UTF-8" and try again.',
    unreadable: 'this line cannot be read as CSV.',
  },
} as const;

/**
 * Whether a new document of a property would be read by administrators only, from the server's
 * document-recipients answer: nobody active has access, or investors are not shown the property.
 */
export function hasNoReader(recipients: { recipients: number; investorRelations: boolean }): boolean {
  return recipients.recipients === 0 || !recipients.investorRelations;
}

// ---- File checks --------------------------------------------------------------------------

/**
 * The first bytes a dry run reads of each file to check its type, as the server does: what the
 * `file-type` package needs to name a type, more than any container's signature.
 */
export const documentHeadBytes = 4100;

const startsWith = (head: Uint8Array, bytes: readonly number[]): boolean =>
  head.length >= bytes.length && bytes.every((byte, i) => head[i] === byte);

/**
 * The container a document's first bytes announce: '%PDF-' for a PDF, the OLE2 signature for
 * .doc and .xls, a zip's local header for .docx and .xlsx; null for anything else. The server
 * then opens the container to tell a Word document from a workbook; a dry run has only the head.
 */
export function documentContainerOf(head: Uint8Array): DocumentContainer | null {
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  return null;
}

/**
 * Why the portal would refuse this file, checked as the server checks it: name ends in an
 * accepted extension, not empty, at most 10 MB, and its first bytes are what its extension
 * promises (PDF '%PDF-', OLE for .doc/.xls, zip for .docx/.xlsx). `head` omitted: name and size
 * only. null = accepted.
 */
export function documentRefusal(file: { name: string; size: number; head?: Uint8Array }): string | null {
  const extension = documentExtensionOf(file.name);
  if (!extension) return publishingMessages.wrongType;
  if (file.size === 0) return publishingMessages.empty;
  if (file.size > maxDocumentBytes) return publishingMessages.tooLarge;
  if (file.head && documentContainerOf(file.head) !== documentContainers[extension]) {
    return publishingMessages.contentNotAsNamed(extension);
  }
  return null;
}

/**
 * The last bytes a sync reads of each file to tell a finished document from one still being
 * written: a PDF ends with its '%%EOF' mark, which readers look for in the last 1024 bytes.
 */
export const documentTailBytes = 1024;

const pdfEndMark = [0x25, 0x25, 0x45, 0x4f, 0x46]; // %%EOF

function contains(bytes: Uint8Array, mark: readonly number[]): boolean {
  outer: for (let i = 0; i + mark.length <= bytes.length; i += 1) {
    for (let j = 0; j < mark.length; j += 1) if (bytes[i + j] !== mark[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Why a document whose first bytes are right is not finished yet (issue 34), or null: a PDF
 * must end with its trailer ('%%EOF' within its last documentTailBytes), a zip (.docx, .xlsx)
 * with its end-of-central-directory record, an OLE file (.doc, .xls) fill whole 512-byte
 * sectors. A scanner writing page by page leaves a file that fails this between pages.
 */
export function documentIncompleteness(container: DocumentContainer, file: { size: number; tail: Uint8Array }): string | null {
  switch (container) {
    case 'pdf':
      return contains(file.tail, pdfEndMark) ? null : publishingMessages.incomplete.pdf;
    case 'zip':
      return contains(file.tail, [0x50, 0x4b, 0x05, 0x06]) ? null : publishingMessages.incomplete.zip;
    case 'ole':
      return file.size % 512 === 0 ? null : publishingMessages.incomplete.ole;
  }
}

function baseName(name: string): string {
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  return slash === -1 ? name : name.slice(slash + 1);
}

/**
 * The title a property document gets from its file name: the name in NFC without its last
 * extension, trimmed. It fits when 1 to fieldMax.title characters long (see titleRefusal).
 */
export function titleFromFilename(filename: string): string {
  const name = baseName(filename).normalize('NFC');
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).trim();
}

/** Why a property document could not be titled by this file name, or null when it can. */
export function filenameTitleRefusal(filename: string): string | null {
  const title = titleFromFilename(filename);
  if (title === '') return publishingMessages.fileNameNoTitle;
  if (title.length > fieldMax.title) return publishingMessages.fileNameTitleTooLong;
  return null;
}

// ---- Twins --------------------------------------------------------------------------------

// The names that file managers, browsers and mail clients give a copy: Windows 'X - Copy' and
// 'X - Copy (2)', GNOME 'X (copy)' and 'X (another copy)', macOS 'X copy' and 'X copy 2', a
// download's 'X (1)', and 'Copy of X'.
const copySuffix = /(?:\s-\s*copy(?:\s*\(\d+\))?|\s*\((?:copy(?:\s*\d+)?|another copy|\d+(?:st|nd|rd|th) copy|\d+)\)|\scopy(?:\s*\d+)?)$/i;
const copyPrefix = /^copy\s(?:\(\d+\)\s)?of\s/i;

function looksLikeCopy(name: string): boolean {
  const stem = titleFromFilename(name);
  return copySuffix.test(stem) || copyPrefix.test(stem);
}

/**
 * The twin rule: among files with the same content for the same destination, which name is the
 * original? The one that does not look like a copy ('X - Copy.pdf', 'X (copy).pdf',
 * 'Copy of X.pdf', 'X (1).pdf', 'X copy.pdf'), then the shorter, then the first alphabetically
 * (by code unit, so every machine agrees). The order of `names` never matters.
 */
export function originalOfTwins(names: readonly string[]): string {
  if (names.length === 0) throw new Error('originalOfTwins needs at least one name');
  return [...names].sort((a, b) => {
    const copies = Number(looksLikeCopy(a)) - Number(looksLikeCopy(b));
    if (copies !== 0) return copies;
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  })[0]!;
}

// ---- Period -------------------------------------------------------------------------------

export interface Period {
  year: number;
  quarter: Quarter;
}

const quarterOfMonth = (month: number): Quarter => quarters[Math.floor((month - 1) / 3)] ?? 'Q1';
const documentDateShape = /^(\d{4})-(\d{2})-\d{2}$/;

/** The year and quarter of a moment in the firm's time zone: 11 pm on 31 March in Pasadena is Q1. */
export function periodAt(moment: Date): Period {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric' }).formatToParts(moment);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), quarter: quarterOfMonth(part('month')) };
}

/**
 * The period of a personal document: its document_date's quarter, else the batch's (the quarter
 * folder, or what staff chose), else the upload date's (LA time). `documentDate` is 'YYYY-MM-DD'
 * as the manifest checks it; anything else counts as none.
 */
export function periodOf(documentDate: string | null, batch: Period | null, now: Date): Period {
  const date = documentDate ? documentDateShape.exec(documentDate.trim()) : null;
  const month = date ? Number(date[2]) : 0;
  if (date && month >= 1 && month <= 12) return { year: Number(date[1]), quarter: quarterOfMonth(month) };
  if (batch) return { year: batch.year, quarter: batch.quarter };
  return periodAt(now);
}

// ---- Reading CSV --------------------------------------------------------------------------

export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export type CsvDelimiter = ',' | ';' | '\t';

/** How staff are told what a CSV file was read as. */
export const csvEncodingLabels: Record<CsvEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 (Excel Unicode Text)',
  'utf-16be': 'UTF-16',
  'windows-1252': 'Windows-1252 (Excel)',
};
export const csvDelimiterLabels: Record<CsvDelimiter, string> = {
  ',': 'comma (,)',
  ';': 'semicolon (;)',
  '\t': 'tab',
};

const utf8Bom = [0xef, 0xbb, 0xbf] as const;
const utf16Boms = [
  { bom: [0xff, 0xfe], encoding: 'utf-16le' },
  { bom: [0xfe, 0xff], encoding: 'utf-16be' },
] as const;

/**
 * CSV bytes → text: UTF-16 behind its BOM (Excel's "Unicode Text", tab-separated), UTF-8 (with
 * or without BOM), else Windows-1252, which Excel writes on Windows ('Relevé' is one byte 0xE9
 * there); shared by the user import and the manifest. Never throws: a file that starts with a
 * BOM but is damaged is read in that encoding with U+FFFD where it breaks (reading it as
 * windows-1252 would only garble it more), and the readers refuse that text. The text never
 * starts with the BOM.
 */
export function decodeCsvBytes(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  for (const { bom, encoding } of utf16Boms) {
    if (startsWith(bytes, bom)) return { text: new TextDecoder(encoding).decode(bytes), encoding };
  }
  const hasBom = startsWith(bytes, utf8Bom);
  try {
    // ignoreBOM: false (the default) drops a leading BOM.
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    if (hasBom) return { text: new TextDecoder('utf-8').decode(bytes), encoding: 'utf-8' };
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/** The line (from 1) of the first U+FFFD, the mark of bytes that were not text in their encoding. */
export function lineOfUndecodedText(text: string): number | null {
  const index = text.indexOf('\uFFFD');
  return index === -1 ? null : lineBreaksIn(text, 0, index) + 1;
}

const firstLineOf = (text: string): string => {
  const end = text.search(/\r\n|\n|\r/);
  return end === -1 ? text : text.slice(0, end);
};

/** Excel's first line 'sep=;' (which it writes, and honours when it opens the file): the delimiter it names. */
const separatorLine = /^sep=([,;\t])$/i;

/**
 * The delimiter from the header line alone: it holds only column names, so a ';' inside a title
 * or an address can never turn a comma file into a semicolon one (as papaparse's guess over the
 * whole text can). Excel in European locales saves ';', and its "Unicode Text" tabs.
 */
export function csvDelimiterOf(text: string): CsvDelimiter {
  const header = firstLineOf(text);
  if (header.includes(',')) return ',';
  if (header.includes(';')) return ';';
  return header.includes('\t') ? '\t' : ',';
}

const lineBreaks = /\r\n|\n|\r/g;
/** The line breaks in text[from, to), of any kind, as an editor counts lines. */
function lineBreaksIn(text: string, from: number, to: number): number {
  let count = 0;
  lineBreaks.lastIndex = from;
  for (let match = lineBreaks.exec(text); match && match.index < to; match = lineBreaks.exec(text)) count += 1;
  return count;
}

export interface CsvRecord {
  /** The file line the record starts on (the header is line 1; blank lines count). */
  line: number;
  cells: string[];
}

export interface CsvRead {
  delimiter: CsvDelimiter;
  /** Every record that is not blank (a line of only delimiters, as spreadsheets write, is blank). */
  records: CsvRecord[];
  /** papaparse's first complaint (an unclosed quote…), with the file line it is on; null when none. */
  error: { line: number; code: string } | null;
}

/**
 * Reads CSV text as people save it: BOM or not, ',' or ';', and the kind of line break papaparse
 * guesses. Each record keeps the line it starts on, counted over the text papaparse consumed,
 * because papaparse numbers rows, not lines, and a quoted cell may span several lines.
 */
export function readCsv(csvText: string): CsvRead {
  const full = csvText.replace(/^\uFEFF/, '');
  // A first line 'sep=;' names the delimiter and is no record; the lines keep the file's numbers.
  const first = firstLineOf(full);
  const separator = separatorLine.exec(first.trim());
  const text = separator ? full.slice(first.length).replace(/^(?:\r\n|\n|\r)/, '') : full;
  const delimiter = separator ? (separator[1] as CsvDelimiter) : csvDelimiterOf(text);
  const records: CsvRecord[] = [];
  let error: CsvRead['error'] = null;
  let start = 0;
  let line = separator ? 2 : 1;
  Papa.parse<string[]>(text, {
    header: false,
    delimiter,
    skipEmptyLines: false,
    step: (result) => {
      const cursor = result.meta.cursor;
      const cells = result.data;
      const first = result.errors[0];
      if (first && !error) {
        // The index, when papaparse gives one, is where the faulty quote is in the text.
        const at = typeof first.index === 'number' && first.index >= start ? first.index : start;
        error = { line: line + lineBreaksIn(text, start, at), code: first.code };
      }
      if (cells.some((cell) => cell.trim() !== '')) records.push({ line, cells });
      line += lineBreaksIn(text, start, cursor);
      start = cursor;
    },
  });
  return { delimiter, records, error };
}

/** A plain sentence for staff for each of papaparse's error codes. */
export function csvErrorSentence(code: string): string {
  switch (code) {
    case 'MissingQuotes':
      return publishingMessages.csv.quoteNotClosed;
    case 'InvalidQuotes':
      return publishingMessages.csv.textAfterQuote;
    case 'UndetectableDelimiter':
      return publishingMessages.csv.noDelimiter;
    default:
      return publishingMessages.csv.unreadable;
  }
}
