import { describe, expect, it } from 'vitest';
import { fieldMax } from './limits';
import { maxDocumentBytes } from './document-files';
import {
  decodeCsvBytes,
  destinationKey,
  documentContainerOf,
  documentHeadBytes,
  documentIdentityKey,
  documentIncompleteness,
  documentRefusal,
  filenameTitleRefusal,
  isSameDocument,
  originalOfTwins,
  periodOf,
  publicationKey,
  publishingMessages,
  readCsv,
  titleFromFilename,
} from './publishing';

const ascii = (text: string) => new TextEncoder().encode(text);
const pdfHead = ascii('%PDF-1.7\n%âãÏÓ\n1 0 obj');
const oleHead = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
const zipHead = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);

/** windows-1252 bytes of a Latin-1 text (the two agree on the letters used here). */
function cp1252(text: string): Uint8Array {
  return Uint8Array.from([...text].map((ch) => ch.charCodeAt(0)));
}

describe('destinationKey and publicationKey', () => {
  it('compares property names and e-mails as people read them: NFC, trimmed, any case', () => {
    expect(destinationKey({ kind: 'property', property: ' Café Élysée Lofts '.normalize('NFD') })).toBe('property:café élysée lofts');
    expect(destinationKey({ kind: 'investor', email: 'Ann@Example.com' })).toBe('investor:ann@example.com');
  });

  it('tells the same content apart by its destination (issue 32 case 2)', () => {
    const heartland = publicationKey({ kind: 'property', property: 'Heartland Plaza' }, 'ABC');
    const sunset = publicationKey({ kind: 'property', property: 'Sunset Terrace Apartments' }, 'abc');
    expect(heartland).not.toBe(sunset);
    expect(publicationKey({ kind: 'property', property: 'heartland plaza' }, 'abc')).toBe(heartland);
    // A property named like an e-mail is still not that investor.
    expect(publicationKey({ kind: 'property', property: 'a@b.com' }, 'abc')).not.toBe(publicationKey({ kind: 'investor', email: 'a@b.com' }, 'abc'));
  });
});

describe('documentIncompleteness (issue 34)', () => {
  it("tells a PDF whose trailer is written from one a scanner is still writing", () => {
    expect(documentIncompleteness('pdf', { size: 900, tail: ascii('endobj\ntrailer\n<<>>\nstartxref\n123\n%%EOF\n') })).toBeNull();
    // Readers accept a little after the mark (a line break, an editor's padding).
    expect(documentIncompleteness('pdf', { size: 900, tail: ascii('%%EOF\r\n\u0000\u0000') })).toBeNull();
    expect(documentIncompleteness('pdf', { size: 900, tail: ascii('4 0 obj\n<< /Type /Page >>\nstream\nBT') })).toBe(publishingMessages.incomplete.pdf);
  });

  it('asks a zip for its end record and an OLE file for whole sectors', () => {
    expect(documentIncompleteness('zip', { size: 100, tail: Uint8Array.from([1, 0x50, 0x4b, 0x05, 0x06, 0, 0]) })).toBeNull();
    expect(documentIncompleteness('zip', { size: 100, tail: zipHead })).toBe(publishingMessages.incomplete.zip);
    expect(documentIncompleteness('ole', { size: 4096, tail: oleHead })).toBeNull();
    expect(documentIncompleteness('ole', { size: 4000, tail: oleHead })).toBe(publishingMessages.incomplete.ole);
  });
});

describe('documentRefusal', () => {
  it('accepts each type whose first bytes are what its extension promises', () => {
    expect(documentRefusal({ name: 'a.pdf', size: 10, head: pdfHead })).toBeNull();
    expect(documentRefusal({ name: 'a.DOC', size: 10, head: oleHead })).toBeNull();
    expect(documentRefusal({ name: 'a.xls', size: 10, head: oleHead })).toBeNull();
    expect(documentRefusal({ name: 'a.docx', size: 10, head: zipHead })).toBeNull();
    expect(documentRefusal({ name: 'a.xlsx', size: 10, head: zipHead })).toBeNull();
  });

  it('refuses a text file named .pdf by its first bytes (issue 32 case 5)', () => {
    const head = ascii('Quarterly report draft, do not send\n');
    expect(documentRefusal({ name: 'Q3 Report.pdf', size: head.length, head })).toBe(publishingMessages.contentNotAsNamed('.pdf'));
    expect(publishingMessages.contentNotAsNamed('.pdf')).toBe("The file's content is not a PDF document, though its name ends in .pdf.");
    // Without the head, only the name and size can be judged.
    expect(documentRefusal({ name: 'Q3 Report.pdf', size: head.length })).toBeNull();
  });

  it('refuses a zip named .doc and a PDF named .xlsx', () => {
    expect(documentRefusal({ name: 'a.doc', size: 10, head: zipHead })).toBe(publishingMessages.contentNotAsNamed('.doc'));
    expect(documentRefusal({ name: 'a.xlsx', size: 10, head: pdfHead })).toBe(publishingMessages.contentNotAsNamed('.xlsx'));
  });

  it('refuses a file over 10 MB, an empty one and other types, in that order of checks', () => {
    expect(documentRefusal({ name: 'big.pdf', size: 11 * 1024 * 1024, head: pdfHead })).toBe(publishingMessages.tooLarge);
    expect(documentRefusal({ name: 'edge.pdf', size: maxDocumentBytes, head: pdfHead })).toBeNull();
    expect(documentRefusal({ name: 'edge.pdf', size: maxDocumentBytes + 1 })).toBe('The file is larger than 10 MB, the most the portal accepts.');
    expect(documentRefusal({ name: 'empty.pdf', size: 0 })).toBe('The file is empty.');
    expect(documentRefusal({ name: 'notes.txt', size: 10 })).toBe(publishingMessages.wrongType);
    expect(documentRefusal({ name: 'pdf', size: 10 })).toBe(publishingMessages.wrongType);
  });

  it('reads no more than documentHeadBytes to decide', () => {
    expect(documentHeadBytes).toBeGreaterThanOrEqual(8);
    expect(documentContainerOf(new Uint8Array(0))).toBeNull();
    expect(documentContainerOf(pdfHead.slice(0, 4))).toBeNull();
    expect(documentContainerOf(pdfHead)).toBe('pdf');
    expect(documentContainerOf(oleHead)).toBe('ole');
    expect(documentContainerOf(zipHead)).toBe('zip');
  });
});

describe('titleFromFilename', () => {
  it('is the NFC name without its last extension, trimmed', () => {
    expect(titleFromFilename('Q3 Investor Report.pdf')).toBe('Q3 Investor Report');
    expect(titleFromFilename('Budget v2.final.xls')).toBe('Budget v2.final');
    expect(titleFromFilename('Résumé.pdf'.normalize('NFD'))).toBe('Résumé'.normalize('NFC'));
    expect(titleFromFilename(' spaced .docx')).toBe('spaced');
  });

  it('refuses a title over 200 characters and a name that gives none (issue 32 case 5)', () => {
    expect(filenameTitleRefusal(`${'t'.repeat(fieldMax.title)}.pdf`)).toBeNull();
    expect(filenameTitleRefusal(`${'t'.repeat(201)}.pdf`)).toBe(publishingMessages.fileNameTitleTooLong);
    expect(filenameTitleRefusal('  .pdf')).toBe(publishingMessages.fileNameNoTitle);
  });
});

describe('originalOfTwins', () => {
  it.each([
    ['Report - Copy.pdf'],
    ['Report - Copy (2).pdf'],
    ['Report (copy).pdf'],
    ['Report (another copy).pdf'],
    ['Copy of Report.pdf'],
    ['Report (1).pdf'],
    ['Report copy.pdf'],
    ['Report copy 2.pdf'],
  ])('keeps Report.pdf over %s, whichever comes first', (copy) => {
    expect(originalOfTwins([copy, 'Report.pdf'])).toBe('Report.pdf');
    expect(originalOfTwins(['Report.pdf', copy])).toBe('Report.pdf');
  });

  it('then the shorter name, then the first by code unit', () => {
    expect(originalOfTwins(['K-1 2025 final.pdf', 'K-1 2025.pdf'])).toBe('K-1 2025.pdf');
    expect(originalOfTwins(['b.pdf', 'a.pdf'])).toBe('a.pdf');
    // Two copies and no original: the rule still picks one, the same one every time.
    expect(originalOfTwins(['Report (1).pdf', 'Report - Copy.pdf'])).toBe('Report (1).pdf');
  });

  it('does not call a name a copy for a word inside it', () => {
    expect(originalOfTwins(['Copyright notice.pdf', 'Copyright notice (1).pdf'])).toBe('Copyright notice.pdf');
  });
});

describe('periodOf', () => {
  const batch = { year: 2026, quarter: 'Q3' } as const;
  const now = new Date('2026-11-02T18:00:00Z');

  it("files a row without document_date under the batch's quarter, not the upload's (issue 32 case 4)", () => {
    expect(periodOf(null, batch, now)).toEqual({ year: 2026, quarter: 'Q3' });
  });

  it("lets the row's own document_date win", () => {
    expect(periodOf('2025-05-02', batch, now)).toEqual({ year: 2025, quarter: 'Q2' });
    expect(periodOf('2025-12-31', null, now)).toEqual({ year: 2025, quarter: 'Q4' });
  });

  it("falls back to the upload's quarter in the firm's time zone", () => {
    expect(periodOf(null, null, now)).toEqual({ year: 2026, quarter: 'Q4' });
    // 11 pm on 31 March in Pasadena is already April in UTC.
    expect(periodOf(null, null, new Date('2026-04-01T06:00:00Z'))).toEqual({ year: 2026, quarter: 'Q1' });
    expect(periodOf('not a date', null, now)).toEqual({ year: 2026, quarter: 'Q4' });
  });
});

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

describe('isSameDocument', () => {
  const statement = { title: 'Quarterly Distribution Statement', category: 'financial' as const, year: 2026, quarter: 'Q1' as const };

  it('is the same document within one period, title read as people read it (NFC, case, spaces)', () => {
    expect(isSameDocument(statement, { ...statement, title: ' quarterly distribution STATEMENT ' })).toBe(true);
    // A Mac spells 'é' as 'e' and a combining accent.
    expect(isSameDocument({ ...statement, title: 'Relevé' }, { ...statement, title: 'Releve\u0301' })).toBe(true);
  });

  it('is another document in another quarter, another year or another category', () => {
    expect(isSameDocument(statement, { ...statement, quarter: 'Q2' })).toBe(false);
    expect(isSameDocument(statement, { ...statement, year: 2025 })).toBe(false);
    expect(isSameDocument(statement, { ...statement, category: 'tax' })).toBe(false);
    // A property document has no category; a personal one always has.
    expect(isSameDocument({ ...statement, category: null }, statement)).toBe(false);
  });

  it('keys a document under its owner: two investors never share a key', () => {
    expect(documentIdentityKey(1, statement)).not.toBe(documentIdentityKey(2, statement));
    expect(documentIdentityKey(1, statement)).toBe(documentIdentityKey(1, { ...statement, title: 'QUARTERLY distribution statement' }));
  });
});
