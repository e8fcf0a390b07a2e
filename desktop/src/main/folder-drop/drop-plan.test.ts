import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PropertyDocument } from '@everest/core/contract';
import { publishingMessages } from '@everest/core/domain';
import type { Portal } from '../../sync/portal';
import { planFolderDrop } from './drop-plan';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function pdf(label: string): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${label} ${randomBytes(8).toString('hex')}\n${'x'.repeat(200)}\n%%EOF\n`);
}

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** A quarter folder with `files` (relative path → content). */
function quarterFolder(files: Record<string, Buffer>): string {
  const base = mkdtempSync(path.join(os.tmpdir(), 'everest-drop-plan-'));
  dirs.push(base);
  const folder = path.join(base, '2025-Q3');
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
    writeFileSync(path.join(folder, relative), content);
  }
  return folder;
}

/** The portal's read routes, answered from memory: the plan sends nothing. */
function portalOf(documents: { document: PropertyDocument; sha256: string }[] = []): Portal {
  const refuse = () => Promise.reject(new Error('A dry run sends nothing.'));
  return {
    propertyNames: () => Promise.resolve(['Heartland Plaza', 'Sunset Terrace Apartments']),
    propertyDocuments: () => Promise.resolve(documents.map((d) => d.document)),
    documentSha256: (id) => Promise.resolve(documents.find((d) => d.document.id === id)!.sha256),
    documentRecipients: () => Promise.resolve({ recipients: 2, investorRelations: true }),
    bulkPreview: (emails) =>
      Promise.resolve({
        users: emails.includes('investor@example.com') ? [{ email: 'investor@example.com', userId: 3, publishedSha256: [], documents: [], active: true }] : [],
      }),
    uploadDocument: refuse,
    replaceDocument: refuse,
    notifyDocuments: refuse,
    replacePersonalDocument: refuse,
    bulkUpload: refuse,
  };
}

const serverDocument = (fields: Partial<PropertyDocument> & Pick<PropertyDocument, 'id' | 'property' | 'fileSize'>): PropertyDocument => ({
  title: 'Published earlier',
  year: 2024,
  quarter: 'Q1',
  filename: 'earlier.pdf',
  uploadedAt: '2024-02-01T00:00:00.000Z',
  fileExists: true,
  documentType: 'property',
  version: 1,
  correctedAt: null,
  ...fields,
});

describe('the Folder Drop plan (issue 32): "will be published" means what the portal will publish', () => {
  it('applies the server\'s checks, the twin rule and content + destination, and reads the manifest as the user import does', async () => {
    const notice = pdf('Capital call');
    const budget = pdf('Budget');
    const longName = `${'Quarterly report '.repeat(12)}final`.slice(0, 201);
    const folder = quarterFolder({
      // The same notice for two properties: two documents.
      'properties/Heartland Plaza/Capital Call Notice.pdf': notice,
      'properties/Sunset Terrace Apartments/Capital Call Notice.pdf': notice,
      // A copy of a file for the same property: the original's name is kept.
      'properties/Sunset Terrace Apartments/Budget - Copy.pdf': budget,
      'properties/Sunset Terrace Apartments/Budget.pdf': budget,
      // A text file named .pdf, and a name too long to be a title.
      'properties/General/Notes.pdf': Buffer.from('Just some notes, not a PDF at all.'),
      [`properties/General/${longName}.pdf`]: pdf('long'),
      // Excel's Windows-1252 manifest: 'Relevé' is the single byte 0xE9.
      'investors/manifest.csv': Buffer.from(
        'email,filename,document_category,title,description,document_date,tags\r\n' +
          'investor@example.com,k1.pdf,tax,Relev\u00e9 de compte,,,\r\n' +
          'investor@example.com,fake.pdf,tax,Fake K-1,,,\r\n' +
          'investor@example.com,k1-dated.pdf,tax,Dated K-1,,2025-01-15,\r\n',
        'latin1',
      ),
      'investors/k1.pdf': pdf('k1'),
      'investors/k1-dated.pdf': pdf('k1 dated'),
      'investors/fake.pdf': Buffer.from('<html>not a pdf</html>'),
    });
    // Heartland already has the notice, under another title and period: the server would answer
    // alreadyPublished. Sunset does not.
    const portal = portalOf([{ document: serverDocument({ id: 9, property: 'Heartland Plaza', fileSize: notice.length }), sha256: sha256(notice) }]);

    const plan = await planFolderDrop(folder, portal);

    expect(plan.propertyDocuments.map((d) => [d.path, d.title, d.alreadyPublished])).toEqual([
      ['properties/Heartland Plaza/Capital Call Notice.pdf', 'Capital Call Notice', true],
      ['properties/Sunset Terrace Apartments/Budget.pdf', 'Budget', false],
      ['properties/Sunset Terrace Apartments/Capital Call Notice.pdf', 'Capital Call Notice', false],
    ]);
    expect(new Map(plan.unmatched.map((u) => [u.path, u.reason]))).toEqual(
      new Map([
        ['properties/General/Notes.pdf', publishingMessages.contentNotAsNamed('.pdf')],
        [`properties/General/${longName}.pdf`, publishingMessages.fileNameTitleTooLong],
        ['properties/Sunset Terrace Apartments/Budget - Copy.pdf', publishingMessages.twinForProperty('properties/Sunset Terrace Apartments/Budget.pdf')],
      ]),
    );
    expect(plan.manifests).toEqual([{ path: 'investors/manifest.csv', encoding: 'windows-1252' }]);
    expect(plan.personalDocuments.map((d) => [d.row, d.title, d.outcome, d.reason, d.year, d.quarter])).toEqual([
      [2, 'Relevé de compte', 'publish', null, 2025, 'Q3'],
      [3, null, 'refused', publishingMessages.contentNotAsNamed('.pdf'), null, null],
      [4, 'Dated K-1', 'publish', null, 2025, 'Q1'],
    ]);
    const willPublish = plan.propertyDocuments.filter((d) => !d.alreadyPublished).length + plan.personalDocuments.filter((d) => d.outcome === 'publish').length;
    expect(willPublish).toBe(4);
  });

  it('refuses a manifest that cannot be read whole, with its line, and plans none of its rows', async () => {
    const folder = quarterFolder({
      'investors/manifest.csv': Buffer.from('email,filename,document_category,title\ninvestor@example.com,d.pdf,tax,"2025 K-1 for the ""Trust\ninvestor2@example.com,e.pdf,tax,Other K-1\n'),
      'investors/d.pdf': pdf('d'),
      'investors/e.pdf': pdf('e'),
    });
    const plan = await planFolderDrop(folder, portalOf());
    expect(plan.personalDocuments).toEqual([]);
    expect(plan.unmatched).toContainEqual({ path: 'investors/manifest.csv', reason: 'Line 2: a quoted field is not closed.' });
  });
});
