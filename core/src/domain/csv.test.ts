import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('toCsv', () => {
  it('prefixes a single quote to cells a spreadsheet would run, whatever they hold after', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(['+1', '-2', '@SUM(A1)', '\tx', '\rx'].map(csvCell)).toEqual(["'+1", "'-2", "'@SUM(A1)", "'\tx", `"'\rx"`]);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('escapes a multi-line formula cell, which papaparse escapeFormulae misses', () => {
    const text = toCsv([
      ['email', 'note'],
      ['a@example.com', '=HYPERLINK("x")\nline2'],
    ]);
    expect(text).toBe(`email,note\r\na@example.com,"'=HYPERLINK(""x"")\nline2"`);
    // Read back, the cell is the text with its quote, not a formula.
    expect(Papa.parse<string[]>(text).data[1]).toEqual(['a@example.com', `'=HYPERLINK("x")\nline2`]);
  });

  it('quotes cells with commas, quotes and line breaks and leaves plain ones bare', () => {
    expect(toCsv([['a,b', 'say "hi"', 'x\ny', 'plain', '']])).toBe('"a,b","say ""hi""","x\ny",plain,');
  });
});
