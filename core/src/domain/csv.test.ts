import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('csvCell', () => {
  it.each([
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\tleading tab', "'\tleading tab"],
  ])('puts a single quote before %j, which a spreadsheet would run as a formula', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('quotes a cell starting with a carriage return after escaping it', () => {
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
  });

  it('quotes commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('k1, 2025')).toBe('"k1, 2025"');
    expect(csvCell('The "final" K-1')).toBe('"The ""final"" K-1"');
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
  });

  it('leaves plain text, numbers and booleans as they are, and writes nothing for null', () => {
    expect(csvCell('investor@example.com')).toBe('investor@example.com');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });
});

describe('toCsv', () => {
  it('writes CRLF lines that a CSV reader reads back cell for cell, a multi-line cell included', () => {
    const rows = [
      ['email', 'title', 'description'],
      ['ann@example.com', 'K-1, 2025', 'First line\nsecond line with "quotes"'],
      ['bob@example.com', '=HYPERLINK("x")', ''],
    ];
    const text = toCsv(rows);
    expect(text).toBe(
      'email,title,description\r\nann@example.com,"K-1, 2025","First line\nsecond line with ""quotes"""\r\nbob@example.com,"\'=HYPERLINK(""x"")",\r\n',
    );
    const read = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(read).toEqual([rows[0], rows[1], ['bob@example.com', `'=HYPERLINK("x")`, '']]);
  });

  it('escapes a multi-line formula cell, which papaparse escapeFormulae misses', () => {
    const text = toCsv([
      ['email', 'note'],
      ['a@example.com', '=HYPERLINK("x")\nline2'],
    ]);
    expect(text).toBe(`email,note\r\na@example.com,"'=HYPERLINK(""x"")\nline2"\r\n`);
    // Read back, the cell is the text with its quote, not a formula.
    expect(Papa.parse<string[]>(text).data[1]).toEqual(['a@example.com', `'=HYPERLINK("x")\nline2`]);
  });

  it('writes nothing for no rows', () => {
    expect(toCsv([])).toBe('');
  });
});
