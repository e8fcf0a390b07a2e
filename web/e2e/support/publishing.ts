import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { adminDocumentsAnswer, investorDocumentsAnswer, propertyAnswer, type InvestorDocument } from '@everest/core/contract';
import { maxDocumentBytes } from '@everest/core/domain';
import { unique } from './admin';
import { signIn } from './portal';

// Issue 32's publishing flows: properties of a test's own, quarter folders built on disk at test
// time, and what an investor's portal was sent.

/**
 * A property of the test's own, readable by investors (active, investor relations on) unless
 * told otherwise: every investor with access hears of its documents, so a shared property would
 * hear of the uploads of tests running beside this one.
 */
export async function createProperty(
  request: APIRequestContext,
  token: string,
  name: string,
  options: { status?: 'active' | 'sold' | 'inactive'; investorRelations?: boolean } = {},
): Promise<number> {
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post('/api/admin/create-property', { headers, data: { name } });
  expect(created.ok(), await created.text()).toBe(true);
  const { property } = propertyAnswer.parse(await created.json());
  const updated = await request.post('/api/admin/update-property', {
    headers,
    data: {
      id: property.id,
      name,
      type: 'residential',
      address: '1 Test Way',
      city: 'Pasadena',
      state: 'CA',
      status: options.status ?? 'active',
      latitude: '34.1',
      longitude: '-118.1',
      investorRelations: options.investorRelations ?? true,
    },
  });
  expect(updated.ok(), await updated.text()).toBe(true);
  return property.id;
}

/** Every property document, as the administrator's list has them. */
export async function adminDocumentTitles(request: APIRequestContext, token: string): Promise<string[]> {
  const response = await request.get('/api/admin/documents', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return adminDocumentsAnswer.parse(await response.json()).documents.map((d) => d.title);
}

/** A small real PDF with the given marker inside: the same marker, the same bytes. */
export function pdfBytes(marker: string): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n% ${marker}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
  );
}

/** A PDF just over the portal's 10 MB. */
export function oversizedPdf(): Buffer {
  const bytes = Buffer.alloc(maxDocumentBytes + 1024 * 1024, 0x20);
  bytes.write('%PDF-1.4\n', 0);
  return bytes;
}

/**
 * Writes a folder of files under a new temporary directory and answers the folder's path (what
 * the folder picker is given). `files` maps relative paths ('properties/X/a.pdf') to contents.
 */
export function writeFolder(name: string, files: Record<string, Buffer | string>): string {
  const root = join(mkdtempSync(join(tmpdir(), 'everest-quarter-')), name);
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return root;
}

/** A manifest's text from its rows (no cell here holds a comma or a quote). */
export function manifestCsv(rows: readonly (readonly string[])[]): string {
  return ['email,filename,document_category,title,document_date', ...rows.map((row) => row.join(','))].join('\n');
}

/**
 * Signs the investor in, in a browser context of their own, and answers the page and the
 * documents the portal was sent for 'Your Documents'.
 */
export async function investorPortal(
  page: Page,
  email: string,
  password: string,
): Promise<InvestorDocument[]> {
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/investor/documents' && response.ok());
  await signIn(page, email, password);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  return investorDocumentsAnswer.parse(await (await answer).json()).documents;
}

/** A unique tag for the titles and names of one run of a test. */
export const runTag = () => unique('').slice(-7);
