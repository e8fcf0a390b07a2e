// Writing CSV that people open in spreadsheets. A cell starting with = + - @, a tab or a carriage
// return can be run as a formula by Excel or LibreOffice (OWASP "CSV injection"); such a cell is
// written with a single quote in front, which the spreadsheet shows as text.

export type CsvValue = string | number | boolean | null | undefined;

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

/**
 * One cell: text that could start a formula gets a leading single quote, then the cell is quoted
 * (RFC 4180) when it holds a comma, a quote or a line break. Numbers and booleans are written as
 * they are: they cannot carry a formula, and -5 must stay a number.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = formulaStart.test(value) ? `'${value}` : value;
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as CSV text: cells joined by commas, each line ended by CRLF (RFC 4180). */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
