import { describe, expect, it } from 'vitest';
import type { PropertyDocument } from '@everest/core/contract';
import { maxDocumentBytes, portalMessages } from '@everest/core/domain';
import { checkDocumentFile, matchesDocument, sortDocuments } from './document-rules';

const doc = (id: number, title: string, year: number, quarter: PropertyDocument['quarter'], property = 'General'): PropertyDocument => ({
  id,
  title,
  property,
  year,
  quarter,
  filename: `${title}.pdf`,
  fileSize: 1,
  uploadedAt: '2026-01-01T00:00:00.000Z',
  fileExists: true,
  documentType: 'property',
  version: 1,
  correctedAt: null,
});

const file = (name: string, size: number) => {
  const f = new File(['x'], name);
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('property documents list', () => {
  it('sorts by year descending, then quarter descending, then title', () => {
    const sorted = sortDocuments([doc(1, 'b', 2024, 'Q1'), doc(2, 'a', 2024, 'Q1'), doc(3, 'z', 2025, 'Q1'), doc(4, 'c', 2024, 'Q4')]);
    expect(sorted.map((d) => d.id)).toEqual([3, 4, 2, 1]);
  });

  it('finds a document by every word of the search, in any field and case', () => {
    const d = doc(1, 'Quarterly Report', 2024, 'Q3', 'Oak Terrace');
    expect(matchesDocument(d, 'oak 2024')).toBe(true);
    expect(matchesDocument(d, 'report q3')).toBe(true);
    expect(matchesDocument(d, 'oak 2023')).toBe(false);
    expect(matchesDocument(d, '  ')).toBe(true);
  });
});

describe('document file checks', () => {
  it('accepts pdf, doc, docx, xls and xlsx up to 10 MB', () => {
    expect(checkDocumentFile(file('Report.PDF', maxDocumentBytes))).toBeNull();
    expect(checkDocumentFile(file('sheet.xlsx', 10))).toBeNull();
  });

  it('refuses other types and larger files before sending', () => {
    expect(checkDocumentFile(file('photo.png', 10))?.title).toBe(portalMessages.invalidFileType);
    expect(checkDocumentFile(file('big.pdf', maxDocumentBytes + 1))?.description).toMatch(/larger than 10 MB/);
  });
});
