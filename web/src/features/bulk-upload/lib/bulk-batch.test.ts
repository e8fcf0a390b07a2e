import { describe, expect, it } from 'vitest';
import { bulkManifestMessages } from '@everest/core/domain';
import { batchKey, sha256Hex, splitFolder } from './bulk-batch';
import { manifestCells, mergePreviewAnswers, planBatch, previewRequests, rowMessage } from './bulk-plan';

const header = 'email,filename,document_category,title';

function file(name: string, content = name, path?: string, size?: number): File {
  const f = new File([content], name);
  if (path) Object.defineProperty(f, 'webkitRelativePath', { value: path });
  if (size !== undefined) Object.defineProperty(f, 'size', { value: size });
  return f;
}

describe('a folder picked whole', () => {
  it('takes the manifest.csv nearest the top and only the files in its folder and below', () => {
    const manifest = file('Manifest.CSV', header, '2026-Q1/investors/Manifest.CSV');
    const k1 = file('k1.pdf', 'k1', '2026-Q1/investors/k1.pdf');
    const nested = file('deep.pdf', 'deep', '2026-Q1/investors/a/deep.pdf');
    const deeperManifest = file('manifest.csv', header, '2026-Q1/investors/a/manifest.csv');
    const property = file('report.pdf', 'r', '2026-Q1/properties/General/report.pdf');
    const junk = file('.DS_Store', 'x', '2026-Q1/investors/.DS_Store');
    const split = splitFolder([property, deeperManifest, k1, junk, manifest, nested]);
    expect(split.manifest).toBe(manifest);
    expect(split.files).toEqual([deeperManifest, k1, nested]);
  });

  it('answers no manifest when the folder has none, so the preview can say what is missing', () => {
    const split = splitFolder([file('k1.pdf', 'k1', 'q/k1.pdf'), file('Thumbs.db', 'x', 'q/Thumbs.db')]);
    expect(split.manifest).toBeNull();
    expect(split.files.map((f) => f.name)).toEqual(['k1.pdf']);
  });
});

describe('hashes', () => {
  it("names the batch by its manifest and its files' contents, whatever order they were picked in", async () => {
    const manifest = new TextEncoder().encode(`${header}\nx@example.com,a.pdf,tax,A`).buffer;
    const files = [
      { name: 'a.pdf', size: 1, sha256: await sha256Hex('a') },
      { name: 'b.pdf', size: 1, sha256: await sha256Hex('b') },
    ];
    const key = await batchKey(manifest, files);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(await batchKey(manifest, [...files].reverse())).toBe(key);
    expect(await batchKey(manifest, [files[0]!, { ...files[1]!, sha256: await sha256Hex('changed') }])).not.toBe(key);
    expect(await batchKey(new TextEncoder().encode(`${header}\nx@example.com,a.pdf,tax,B`).buffer, files)).not.toBe(key);
  });
});

describe('the manifest', () => {
  it('numbers the cells of each row as the plan numbers its rows, blank lines and semicolons included', () => {
    const cells = manifestCells(`email;filename;document_category;title\n\na@example.com;a.pdf;tax;"A; K-1"\n;b.pdf;tax;\n`);
    expect([...cells]).toEqual([
      [2, { email: 'a@example.com', title: 'A; K-1' }],
      [3, { email: '', title: '' }],
    ]);
  });
});

describe('the dry run', () => {
  it('feeds the plan with what bulk-upload-preview answered, as the server plans the upload', async () => {
    const files = [
      { name: 'old.pdf', size: 1, sha256: await sha256Hex('old') },
      { name: 'new.pdf', size: 1, sha256: await sha256Hex('new') },
      { name: 'other.pdf', size: 1, sha256: await sha256Hex('other') },
      { name: 'stray.pdf', size: 1, sha256: await sha256Hex('stray') },
    ];
    const csv = [
      header,
      'Ann@Example.com,old.pdf,tax,Old K-1',
      'ann@example.com,new.pdf,tax,New K-1',
      'ann@example.com,other.pdf,tax,Subscription',
      'nobody@example.com,other.pdf,tax,X',
      'ann@example.com,gone.pdf,tax,Gone',
    ].join('\n');
    const subscription = { documentId: 3, title: 'Subscription', category: 'tax' as const, year: 2026, quarter: 'Q2' as const, firstPublishedAt: '2026-05-14T17:00:00.000Z' };
    const plan = planBatch(
      csv,
      files,
      { users: [{ email: 'ann@example.com', userId: 7, publishedSha256: [files[0]!.sha256], documents: [subscription], active: true }] },
      { period: { year: 2026, quarter: 'Q2' } },
    );
    expect(plan.rows.map((r) => [r.row, r.outcome])).toEqual([
      [2, 'already-published'],
      [3, 'publish'],
      [4, 'publish'],
      [5, 'user-not-found'],
      [6, 'file-missing'],
    ]);
    // Ann has this quarter's 'Subscription' already: row 4 corrects it, and the preview names it.
    const correcting = plan.rows[2];
    expect(correcting && rowMessage(correcting, [])).toBe('corrects Subscription (Q2 2026, first published May 14, 2026)');
    expect(plan.rows[1] && rowMessage(plan.rows[1], [])).toBe('');
    expect(plan.corrections).toBe(1);
    expect(plan.unprocessed).toEqual(['stray.pdf']);
    expect(planBatch(`${header}\n\n`, files, { users: [] }).error).toBe('No data found in CSV');
  });

  it('says why a file the browser refused is missing, and the plan\'s own sentence otherwise', () => {
    const missing = { row: 2, filename: 'big.pdf', outcome: 'file-missing', error: bulkManifestMessages.fileMissing } as const;
    expect(rowMessage(missing, [{ name: 'big.pdf', reason: 'big.pdf is larger than 10 MB.' }])).toBe('big.pdf is larger than 10 MB. It will not be sent.');
    expect(rowMessage(missing, [])).toBe(bulkManifestMessages.fileMissing);
  });
});

describe('the preview asked in parts', () => {
  const emails = Array.from({ length: 1500 }, (_, i) => `investor.${i}@example.com`);
  const hashes = Array.from({ length: 2000 }, (_, i) => i.toString(16).padStart(64, '0'));

  it('cuts a large batch into bodies under the server\'s 100 kB, asking every e-mail with every hash', () => {
    const requests = previewRequests(emails, hashes);
    expect(requests.length).toBeGreaterThan(1);
    for (const body of requests) expect(JSON.stringify(body).length).toBeLessThan(100_000);
    // The parts cut each list in order, and every e-mail part meets every hash part once.
    const emailParts = [...new Set(requests.map((r) => r.emails))];
    const hashParts = [...new Set(requests.map((r) => r.sha256))];
    expect(emailParts.flat()).toEqual(emails);
    expect(hashParts.flat()).toEqual(hashes);
    const meetings = new Set(requests.map((r) => `${emailParts.indexOf(r.emails)} ${hashParts.indexOf(r.sha256)}`));
    expect(meetings.size).toBe(emailParts.length * hashParts.length);
    expect(requests).toHaveLength(emailParts.length * hashParts.length);
  });

  it('asks once for a usual batch, and once even with no hashes', () => {
    expect(previewRequests(['a@example.com'], ['f'.repeat(64)])).toEqual([{ emails: ['a@example.com'], sha256: ['f'.repeat(64)] }]);
    expect(previewRequests(['a@example.com'], [])).toEqual([{ emails: ['a@example.com'], sha256: [] }]);
  });

  it('merges the answers per investor, so the plan sees every hash and document they have', () => {
    const k1 = { documentId: 1, title: 'K-1', category: 'tax' as const, year: 2026, quarter: 'Q1' as const, firstPublishedAt: '2026-03-01T17:00:00.000Z' };
    const merged = mergePreviewAnswers([
      { users: [{ email: 'ann@example.com', userId: 1, publishedSha256: ['a'], documents: [k1], active: true }] },
      {
        users: [
          { email: 'ann@example.com', userId: 1, publishedSha256: ['b'], documents: [k1], active: true },
          { email: 'bob@example.com', userId: 2, publishedSha256: [], documents: [], active: false },
        ],
      },
    ]);
    expect(merged.users).toEqual([
      { email: 'ann@example.com', userId: 1, publishedSha256: ['a', 'b'], documents: [k1], active: true },
      { email: 'bob@example.com', userId: 2, publishedSha256: [], documents: [], active: false },
    ]);
  });
});
