// Every CSV the product writes goes through `toCsv`, so that no cell can run as a formula when
// an administrator opens the file in a spreadsheet (OWASP "CSV injection").

/** A cell a spreadsheet would read as a formula or control input. */
const formulaStart = /^[=+\-@\t\r]/;

/** A cell that must be quoted: it holds the delimiter, a quote or a line break. */
const needsQuotes = /[",\r\n]/;

/** One cell: a formula-like start gets a leading single quote, then quotes as RFC 4180 asks. */
export function csvCell(value: string): string {
  // Tested against the whole cell, not per line: papaparse's own escapeFormulae misses a
  // multi-line cell because its pattern checks every line start only without the s flag.
  const safe = formulaStart.test(value) ? `'${value}` : value;
  return needsQuotes.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows to CSV text: comma-separated, CRLF line ends (what Excel writes), no trailing line break. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n');
}
