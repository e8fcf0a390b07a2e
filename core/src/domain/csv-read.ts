// Reading the CSV files staff upload (a bulk upload's manifest): the bytes decoded (UTF-8,
// UTF-16 with its mark, else Windows-1252), the delimiter found, the records read with their
// lines, and the sentence for a file that cannot be read safely.

import Papa from 'papaparse';
import { startsWith } from './bytes';

/** A CSV that cannot be read safely: the file's line (the header is line 1) and why. */
export const csvLine = (line: number, sentence: string) => `Line ${line}: ${sentence}`;

/** Why a CSV cannot be read safely, after csvLine's 'Line N: '. */
export const csvMessages = {
  quoteNotClosed: 'a quoted field is not closed.',
  textAfterQuote: 'a quoted field has text after its closing quote.',
  lineBreakInField: 'a field runs onto the next line; a manifest cell cannot hold a line break (is a quote missing?).',
  tooManyFields: (found: number, expected: number, delimiter: CsvDelimiter) =>
    `this row has ${found} fields but the header has ${expected}; a cell that holds ${delimiter === '\t' ? 'a tab' : `"${delimiter}"`} must be in quotes.`,
  tooFewFields: (found: number, expected: number) => `this row has ${found} fields but the header has ${expected}.`,
  noDelimiter: 'the columns are not separated by commas, semicolons or tabs.',
  notText: 'this line holds characters that are not text; save the file as "CSV UTF-8" and try again.',
  unreadable: 'this line cannot be read as CSV.',
} as const;

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
      return csvMessages.quoteNotClosed;
    case 'InvalidQuotes':
      return csvMessages.textAfterQuote;
    case 'UndetectableDelimiter':
      return csvMessages.noDelimiter;
    default:
      return csvMessages.unreadable;
  }
}
