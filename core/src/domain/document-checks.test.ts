import { describe, expect, it } from 'vitest';
import { fieldMax } from './limits';
import { maxDocumentBytes } from './document-files';
import { documentContainerOf, documentHeadBytes, documentIncompleteness, documentRefusal, filenameTitleRefusal, titleFromFilename } from './document-checks';
import { publishingMessages } from './publishing-messages';

const ascii = (text: string) => new TextEncoder().encode(text);
const pdfHead = ascii('%PDF-1.7\n%âãÏÓ\n1 0 obj');
const oleHead = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
const zipHead = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);


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
