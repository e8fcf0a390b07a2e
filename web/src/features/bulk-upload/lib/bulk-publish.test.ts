import { expect, it, vi } from 'vitest';
import type { BulkUploadPersonalDocumentsAnswer, DocumentAnswer, PropertyDocument } from '@everest/core/contract';
import { maxDocumentBytes, publishingMessages } from '@everest/core/domain';
import type { BulkUploadPersonalDocumentsInput } from '../api/bulk-upload-personal-documents';
import type { UploadDocumentInput } from '../../../lib/admin/api/upload-document';
import { dryRunQuarterFolder, type DryRunServer } from './bulk-dry-run';
import { propertyUploadKey, publishBatch, type PublishServer } from './bulk-publish';
import { resultSentence, resultTotals } from './bulk-results';
import { chosenFolder, readFiles } from './bulk-selection';

const pdf = (marker: string) => `%PDF-1.4\n% ${marker}\n%%EOF\n`;
function file(path: string, content: string | Uint8Array<ArrayBuffer>): File {
  const f = new File([content], path.slice(path.lastIndexOf('/') + 1));
  Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
}
const now = new Date('2026-11-27T12:00:00Z');

const dryServer: DryRunServer = {
  preview: async (emails) => ({ users: emails.map((email, i) => ({ email, userId: i + 1, publishedSha256: [], documents: [], active: true })) }),
  documents: async () => [],
  documentSha256: async () => '',
  recipients: async () => ({ recipients: 2, investorRelations: true }),
};

async function quarterRun() {
  const chosen = chosenFolder([
    file('2026-Q3/properties/Heartland Plaza/Q3 Report.pdf', pdf('report')),
    file('2026-Q3/properties/General/Letter.pdf', pdf('letter')),
    file('2026-Q3/investors/manifest.csv', 'email,filename,document_category,title\nann@example.com,k1.pdf,tax,K-1\nann@example.com,big.pdf,tax,Big\n'),
    file('2026-Q3/investors/k1.pdf', pdf('k1')),
    file('2026-Q3/investors/big.pdf', new Uint8Array(maxDocumentBytes + 1).fill(0x25)),
  ]);
  return dryRunQuarterFolder(chosen, await readFiles(chosen.files), ['Heartland Plaza'], dryServer, now);
}

const documentOf = (input: UploadDocumentInput, id: number): PropertyDocument =>
  ({
    id,
    title: input.fields.title,
    property: input.fields.property,
    year: input.fields.year,
    quarter: input.fields.quarter,
    filename: input.file.name,
    fileSize: input.file.size,
    uploadedAt: '2026-11-27T12:00:00.000Z',
    fileExists: true,
    documentType: 'property',
  }) as PropertyDocument;

it('publishes both halves with notifyLater, then sends ONE digest naming both lists of ids', async () => {
  const run = await quarterRun();
  const calls: string[] = [];
  const uploads: UploadDocumentInput[] = [];
  const bulks: BulkUploadPersonalDocumentsInput[] = [];
  const server: PublishServer = {
    correctDocument: () => Promise.reject(new Error('no document of this folder corrects another')),
    uploadDocument: vi.fn(async (input: UploadDocumentInput): Promise<DocumentAnswer> => {
      calls.push(`upload ${input.fields.property}`);
      uploads.push(input);
      input.onProgress?.(1);
      return { message: 'ok', document: documentOf(input, 100 + uploads.length) };
    }),
    bulkUpload: vi.fn(async (input: BulkUploadPersonalDocumentsInput): Promise<BulkUploadPersonalDocumentsAnswer> => {
      calls.push('bulk');
      bulks.push(input);
      return {
        message: 'ok',
        successful: [{ filename: 'k1.pdf', userEmail: 'ann@example.com', title: 'K-1', documentId: 7, year: 2026, quarter: 'Q3' }],
        failed: [{ filename: 'big.pdf', error: 'Row 3: File not found among the selected files' }],
        alreadyPublished: [],
        unprocessed: [],
        totalProcessed: 2,
        pendingUserDocumentIds: [7],
      };
    }),
    notify: vi.fn(async () => {
      calls.push('notify');
      return { message: 'ok', documentIds: [101, 102], userDocumentIds: [7], notified: 3 };
    }),
  };
  const progress: number[] = [];
  const results = await publishBatch(run, { emailNotification: true, onProgress: (f) => progress.push(f) }, server);

  expect(calls).toEqual(['upload General', 'upload Heartland Plaza', 'bulk', 'notify']);
  expect(uploads.map((u) => u.fields)).toEqual([
    { title: 'Letter', property: 'General', year: 2026, quarter: 'Q3', emailNotification: true, notifyLater: true },
    { title: 'Q3 Report', property: 'Heartland Plaza', year: 2026, quarter: 'Q3', emailNotification: true, notifyLater: true },
  ]);
  // An Idempotency-Key each, from the destination and the content, the same for a retry of this dry run.
  const [general, heartland] = run.propertyDocuments;
  expect(uploads[0]?.idempotencyKey).toBe(await propertyUploadKey(run.nonce, 'General', general!.sha256));
  expect(uploads[1]?.idempotencyKey).toBe(await propertyUploadKey(run.nonce, 'Heartland Plaza', heartland!.sha256));
  expect(uploads[0]?.idempotencyKey).not.toBe(uploads[1]?.idempotencyKey);
  // The personal half takes the folder's period, waits for the digest, and never carries the oversized file.
  expect(bulks[0]).toMatchObject({ emailNotification: true, notifyLater: true, period: { year: 2026, quarter: 'Q3' } });
  expect(bulks[0]?.documents.map((f) => f.name)).toEqual(['k1.pdf']);
  expect(server.notify).toHaveBeenCalledWith({ documentIds: [101, 102], userDocumentIds: [7] });
  expect(progress.at(-1)).toBe(1);

  expect(results.notified).toBe(3);
  // The row of the file the browser refused says why, not 'File not found' (case 6).
  expect(results.personal[0]?.failed).toEqual([{ filename: 'big.pdf', error: `Row 3: ${publishingMessages.tooLarge} It was not sent.` }]);
  expect(resultSentence(results)).toBe('3 documents published (2 property, 1 personal). 1 failed.');
});

it('reports what already was published apart from failures, and a repeated batch as nothing new', async () => {
  const run = await quarterRun();
  const server: PublishServer = {
    correctDocument: () => Promise.reject(new Error('no document of this folder corrects another')),
    uploadDocument: async (input) => ({ message: 'ok', alreadyPublished: true, document: { ...documentOf(input, 55), title: 'Earlier title', quarter: 'Q2' } }),
    bulkUpload: async () => ({
      message: 'ok',
      successful: [],
      failed: [],
      alreadyPublished: [{ filename: 'k1.pdf', userEmail: 'ann@example.com', title: 'K-1', documentId: 7 }],
      unprocessed: [],
      totalProcessed: 2,
      repeated: true,
    }),
    notify: vi.fn(async () => ({ message: 'ok', documentIds: [], userDocumentIds: [], notified: 0 })),
  };
  const results = await publishBatch(run, { emailNotification: true }, server);
  expect(resultTotals(results)).toMatchObject({ published: 0, alreadyPublished: 3, failed: 0, repeated: true });
  expect(resultSentence(results)).toBe('This batch was already confirmed. Nothing new was published; 3 already published.');
  expect(results.property.alreadyPublished[0]).toMatchObject({ property: 'General', existing: { title: 'Earlier title', quarter: 'Q2', documentId: 55 } });
  // Nothing new: no digest is asked for.
  expect(server.notify).not.toHaveBeenCalled();
  expect(results.notified).toBe(0);
});

it('without e-mail, nothing waits for a digest and none is sent', async () => {
  const run = await quarterRun();
  const uploads: UploadDocumentInput[] = [];
  const server: PublishServer = {
    correctDocument: () => Promise.reject(new Error('no document of this folder corrects another')),
    uploadDocument: async (input) => {
      uploads.push(input);
      return { message: 'ok', document: documentOf(input, uploads.length) };
    },
    bulkUpload: async (input) => {
      expect(input).toMatchObject({ emailNotification: false, notifyLater: false });
      return { message: 'ok', successful: [], failed: [], alreadyPublished: [], unprocessed: [], totalProcessed: 2 };
    },
    notify: vi.fn(),
  };
  const results = await publishBatch(run, { emailNotification: false }, server);
  expect(uploads.every((u) => !u.fields.emailNotification && !u.fields.notifyLater)).toBe(true);
  expect(server.notify).not.toHaveBeenCalled();
  expect(results.notified).toBeNull();
});

it('a failed upload is a failure with its reason, and the others still go', async () => {
  const run = await quarterRun();
  let first = true;
  const server: PublishServer = {
    correctDocument: () => Promise.reject(new Error('no document of this folder corrects another')),
    uploadDocument: async (input) => {
      if (first) {
        first = false;
        throw new Error('The file could not be stored.');
      }
      return { message: 'ok', document: documentOf(input, 9) };
    },
    bulkUpload: async () => ({ message: 'ok', successful: [], failed: [], alreadyPublished: [], unprocessed: [], totalProcessed: 2, pendingUserDocumentIds: [] }),
    notify: vi.fn(async () => ({ message: 'ok', documentIds: [9], userDocumentIds: [], notified: 2 })),
  };
  const results = await publishBatch(run, { emailNotification: true }, server);
  expect(results.property.failed).toEqual([{ filename: 'General/Letter.pdf', error: 'The file could not be stored.' }]);
  expect(results.property.published.map((d) => d.documentId)).toEqual([9]);
  expect(server.notify).toHaveBeenCalledWith({ documentIds: [9], userDocumentIds: [] });
});
