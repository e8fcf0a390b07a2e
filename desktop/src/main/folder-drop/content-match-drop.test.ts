import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Portal } from '../../sync/portal';
import { contentDropMessages, readDroppedPdfs, stageContentMatch } from './content-match-drop';
import { dropMessages, planFolderDrop } from './drop-plan';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const pdf = (label: string) => Buffer.from(`%PDF-1.4\n% ${label} ${randomBytes(8).toString('hex')}\n${'x'.repeat(200)}\n%%EOF\n`);

function folderOf(root: string, files: Record<string, Buffer>): string {
  const base = mkdtempSync(path.join(os.tmpdir(), 'everest-content-drop-'));
  dirs.push(base);
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(base, relative)), { recursive: true });
    writeFileSync(path.join(base, relative), content);
  }
  return path.join(base, root);
}

/** The portal's read routes, answered from memory: the plan sends nothing. */
const portal: Portal = {
  propertyNames: () => Promise.resolve([]),
  propertyDocuments: () => Promise.resolve([]),
  documentSha256: () => Promise.reject(new Error('No documents.')),
  documentRecipients: () => Promise.resolve({ recipients: 0, investorRelations: true }),
  bulkPreview: (emails) =>
    Promise.resolve({ users: emails.map((email, i) => ({ email, userId: i + 10, publishedSha256: [], documents: [], active: true })) }),
  uploadDocument: () => Promise.reject(new Error('A plan sends nothing.')),
  replaceDocument: () => Promise.reject(new Error('A plan sends nothing.')),
  notifyDocuments: () => Promise.reject(new Error('A plan sends nothing.')),
  replacePersonalDocument: () => Promise.reject(new Error('A plan sends nothing.')),
  bulkUpload: () => Promise.reject(new Error('A plan sends nothing.')),
};

describe('Match by content in the Folder Drop', () => {
  it('offers an investors folder without manifest.csv, with its quarter folder\'s period, and none that has one', async () => {
    const folder = folderOf('drop', {
      'drop/2025-Q3/investors/K1_1.pdf': pdf('1'),
      'drop/2025-Q3/investors/K1_2.pdf': pdf('2'),
      'drop/2025-Q4/investors/manifest.csv': Buffer.from('email,filename,document_category,title\ninvestor@example.com,k.pdf,tax,K-1\n'),
      'drop/2025-Q4/investors/k.pdf': pdf('k'),
    });
    const plan = await planFolderDrop(folder, portal);
    expect(plan.contentFolders).toEqual([
      { folder: '2025-Q3/investors', year: 2025, quarter: 'Q3', files: ['2025-Q3/investors/K1_1.pdf', '2025-Q3/investors/K1_2.pdf'] },
    ]);
    // Still "Not sent" until staff match them: dropping the folder as it is publishes nothing of them.
    expect(plan.unmatched.map((u) => u.path).sort()).toEqual(['2025-Q3/investors/K1_1.pdf', '2025-Q3/investors/K1_2.pdf']);
  });

  it('offers a dropped investors folder itself, by the quarter folder it is in', async () => {
    const folder = folderOf('2024-Q2/investors', { '2024-Q2/investors/K1.pdf': pdf('k1') });
    expect((await planFolderDrop(folder, portal)).contentFolders).toEqual([{ folder: '', year: 2024, quarter: 'Q2', files: ['K1.pdf'] }]);
    const withManifest = folderOf('2024-Q2/investors', {
      '2024-Q2/investors/K1.pdf': pdf('k1'),
      '2024-Q2/investors/manifest.csv': Buffer.from('email,filename,document_category,title\n'),
    });
    expect((await planFolderDrop(withManifest, portal)).contentFolders).toEqual([]);
  });

  it('offers a combined PDF dropped on its own, filed under the quarter folder it is in, or the quarter staff choose', async () => {
    const inQuarter = folderOf('2025-Q4/investors/package.pdf', { '2025-Q4/investors/package.pdf': pdf('package') });
    expect(await planFolderDrop(inQuarter, portal)).toMatchObject({
      folder: path.dirname(inQuarter),
      propertyDocuments: [],
      personalDocuments: [],
      contentFolders: [{ folder: '', year: 2025, quarter: 'Q4', files: ['package.pdf'] }],
    });
    const loose = folderOf('Downloads/package.pdf', { 'Downloads/package.pdf': pdf('package') });
    expect((await planFolderDrop(loose, portal)).contentFolders).toEqual([{ folder: '', year: null, quarter: null, files: ['package.pdf'] }]);
    // Any other file is still not a drop.
    const text = folderOf('notes.txt', { 'notes.txt': Buffer.from('notes') });
    await expect(planFolderDrop(text, portal)).rejects.toThrow(dropMessages.notAFolder);
  });

  it('reads only PDFs below the dropped folder', async () => {
    const bytes = pdf('mine');
    const folder = folderOf('drop', { 'drop/investors/a.pdf': bytes, 'drop/investors/notes.txt': Buffer.from('notes'), 'outside.pdf': pdf('out') });
    const [read] = await readDroppedPdfs(folder, ['investors/a.pdf']);
    expect(Buffer.from(read!.bytes).equals(bytes)).toBe(true);
    await expect(readDroppedPdfs(folder, ['../outside.pdf'])).rejects.toThrow(contentDropMessages.notBelow);
    await expect(readDroppedPdfs(folder, [path.join(path.dirname(folder), 'outside.pdf')])).rejects.toThrow(contentDropMessages.notBelow);
    await expect(readDroppedPdfs(folder, ['investors/notes.txt'])).rejects.toThrow(contentDropMessages.notPdf('investors/notes.txt'));
  });

  it('writes what staff confirmed as a quarter folder whose plan is the manifest\'s, and refuses a name that leaves it', async () => {
    const directory = folderOf('staging', {});
    const k1 = pdf('k1');
    const staged = await stageContentMatch(directory, {
      year: 2025,
      quarter: 'Q3',
      manifest: 'email,filename,document_category,title\r\nann@example.com,K1_1.pdf,tax,2025 Schedule K-1\r\n',
      documents: [{ name: 'K1_1.pdf', bytes: new Uint8Array(k1) }],
    });
    expect(path.basename(staged)).toBe('2025-Q3');
    expect(readdirSync(path.join(staged, 'investors')).sort()).toEqual(['K1_1.pdf', 'manifest.csv']);
    expect(readFileSync(path.join(staged, 'investors', 'K1_1.pdf')).equals(k1)).toBe(true);
    const plan = await planFolderDrop(staged, portal);
    expect(plan.personalDocuments.map((d) => [d.email, d.filename, d.title, d.outcome, d.year, d.quarter])).toEqual([
      ['ann@example.com', 'K1_1.pdf', '2025 Schedule K-1', 'publish', 2025, 'Q3'],
    ]);
    expect(plan.contentFolders).toEqual([]);

    for (const name of ['../evil.pdf', 'sub/evil.pdf', 'manifest.csv']) {
      await expect(
        stageContentMatch(directory, { year: 2025, quarter: 'Q3', manifest: '', documents: [{ name, bytes: new Uint8Array(k1) }] }),
      ).rejects.toThrow(contentDropMessages.badName(name));
    }
    // A refused batch leaves the staged one as it was.
    expect(readdirSync(path.join(staged, 'investors')).sort()).toEqual(['K1_1.pdf', 'manifest.csv']);
  });
});
