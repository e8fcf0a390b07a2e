import { describe, expect, it } from 'vitest';
import { decodeCsvBytes, readCsv } from './csv-read';

const ascii = (text: string) => new TextEncoder().encode(text);

/** windows-1252 bytes of a Latin-1 text (the two agree on the letters used here). */
function cp1252(text: string): Uint8Array {
  return Uint8Array.from([...text].map((ch) => ch.charCodeAt(0)));
}

describe('decodeCsvBytes', () => {
  it('reads a Windows-1252 manifest as Excel saved it and says so', () => {
    const decoded = decodeCsvBytes(cp1252('email,title\nann@example.com,Relevé de compte\n'));
    expect(decoded.encoding).toBe('windows-1252');
    expect(decoded.text).toContain('Relevé de compte');
  });

  it('reads UTF-8 with and without BOM, dropping the BOM', () => {
    expect(decodeCsvBytes(ascii('\uFEFFemail;title\nann@example.com;Relevé\n'))).toEqual({ text: 'email;title\nann@example.com;Relevé\n', encoding: 'utf-8' });
    expect(decodeCsvBytes(ascii('Relevé'))).toEqual({ text: 'Relevé', encoding: 'utf-8' });
  });

  it('never throws: a damaged UTF-8 file keeps U+FFFD where it breaks, for the readers to refuse', () => {
    expect(decodeCsvBytes(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41, 0xe9]))).toEqual({ text: 'A\uFFFD', encoding: 'utf-8' });
  });
});

describe('readCsv', () => {
  it('gives each record the file line it starts on, through blank lines and cells spanning lines', () => {
    const read = readCsv('a,b\r\n\r\n1,"x\r\ny"\r\n2,z\r\n,\r\n3,w');
    expect(read.records.map((r) => [r.line, r.cells[0]])).toEqual([
      [1, 'a'],
      [3, '1'],
      [5, '2'],
      [7, '3'],
    ]);
    expect(read.error).toBeNull();
  });

  it("puts an unclosed quote on the line of the quote, not of papaparse's row", () => {
    const read = readCsv('a,b\n\n1,"x\ny"\n2,"open\n3,w\n');
    expect(read.error).toEqual({ line: 5, code: 'MissingQuotes' });
  });

  it("reads ';' from the header line alone", () => {
    expect(readCsv('\uFEFFemail;title\na;K-1, 2025').records[1]!.cells).toEqual(['a', 'K-1, 2025']);
    expect(readCsv('email,title\na,K-1; 2025').delimiter).toBe(',');
  });
});
