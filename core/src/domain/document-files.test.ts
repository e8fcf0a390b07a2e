import { describe, expect, it } from 'vitest';
import { maxImportCsvBytes } from './csv-columns';
import { isAcceptedDocumentName, maxDocumentBytes } from './document-files';

describe('file limits', () => {
  it('allows 10 MB documents and 5 MB import files', () => {
    expect(maxDocumentBytes).toBe(10 * 1024 * 1024);
    expect(maxImportCsvBytes).toBe(5 * 1024 * 1024);
  });

  it('accepts pdf, doc, docx, xls and xlsx names in any case, and nothing else', () => {
    for (const name of ['a.pdf', 'b.DOC', 'c.docx', 'd.xls', 'e.XLSX']) expect(isAcceptedDocumentName(name)).toBe(true);
    for (const name of ['a.exe', 'b.pdf.exe', 'c.csv', 'pdf']) expect(isAcceptedDocumentName(name)).toBe(false);
  });
});
