import { describe, expect, it, vi } from 'vitest';
import type { PropertyDocument } from '@everest/core/contract';
import { maxDocumentBytes, publishingMessages } from '@everest/core/domain';
import { sha256Hex } from './bulk-batch';
import { countRecipients, dryRunManifest, dryRunQuarterFolder, type DryRunServer } from './bulk-dry-run';
import { chosenFolder, quarterLayout, readFiles } from './bulk-selection';

const pdf = (marker: string) => `%PDF-1.4\n% ${marker}\n%%EOF\n`;

function file(path: string, content: string | Uint8Array<ArrayBuffer>): File {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const f = new File([content], name);
  Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
}

const now = new Date('2026-11-27T12:00:00Z');
const properties = ['Heartland Plaza', 'Sunset Terrace Apartments'];
const header = 'email,filename,document_category,title,document_date';

function server(overrides: Partial<DryRunServer> = {}): DryRunServer {
  return {
    preview: vi.fn(async (emails: string[]) => ({
      users: emails
        .filter((e) => e !== 'nobody@example.com')
        .map((email, i) => ({ email, userId: i + 1, publishedSha256: [], documents: [], active: email !== 'gone@example.com' })),
    })),
    documents: vi.fn(async () => []),
    documentSha256: vi.fn(async () => ''),
    recipients: vi.fn(async () => ({ recipients: 3, investorRelations: true })),
    ...overrides,
  };
}

describe('a quarter folder', () => {
  const notice = pdf('capital call');
  const folderFiles = () => [
    file('2026-Q3/properties/Heartland Plaza/Capital Call Notice.pdf', notice),
    file('2026-Q3/properties/Heartland Plaza/Capital Call Notice - Copy.pdf', notice),
    file('2026-Q3/properties/Sunset Terrace Apartments/Capital Call Notice.pdf', notice),
    file('2026-Q3/properties/Heartland Plaza/notes.pdf', 'just text, named .pdf'),
    file('2026-Q3/properties/Heartland Plaza/.DS_Store', 'x'),
    file(
      '2026-Q3/investors/manifest.csv',
      [
        header,
        'ann@example.com,k1-ann.pdf,tax,K-1 Ann,',
        'ann@example.com,statement.pdf,financial,Statement Ann,2026-01-15',
        'bob@example.com,huge.pdf,tax,K-1 Bob,',
        'nobody@example.com,k1-ann.pdf,tax,Stranger,',
      ].join('\n'),
    ),
    file('2026-Q3/investors/k1-ann.pdf', pdf('k1 ann')),
    file('2026-Q3/investors/statement.pdf', pdf('statement')),
    file('2026-Q3/investors/huge.pdf', new Uint8Array(maxDocumentBytes + 1).fill(0x25)),
  ];

  it('is recognised by its layout, from the paths alone', () => {
    const chosen = chosenFolder(folderFiles());
    expect(chosen.rootName).toBe('2026-Q3');
    expect(chosen.files[0]?.path).toBe('properties/Heartland Plaza/Capital Call Notice.pdf');
    expect(quarterLayout(chosen, properties, now)).not.toBeNull();
    // A folder with only a manifest and its files is not in the layout: it is read as before.
    expect(quarterLayout(chosenFolder([file('batch/manifest.csv', header), file('batch/a.pdf', pdf('a'))]), properties, now)).toBeNull();
  });

  it("plans both halves: each property's documents once, twins and refusals not sent, the manifest under the folder's quarter", async () => {
    const chosen = chosenFolder(folderFiles());
    const progress: number[] = [];
    const read = await readFiles(chosen.files.filter((f) => !f.path.endsWith('.DS_Store')), (f) => progress.push(f));
    expect(progress.at(-1)).toBe(1);
    const run = await dryRunQuarterFolder(chosen, read, properties, server(), now);

    expect(run.layout).toBe('quarter');
    expect(run.error).toBeNull();
    // The same content under two properties is two documents (case 2); the '- Copy' twin is not (case 5).
    expect(run.propertyDocuments.map((d) => [d.property, d.filename, d.title, `${d.quarter} ${d.year}`, d.outcome])).toEqual([
      ['Heartland Plaza', 'Capital Call Notice.pdf', 'Capital Call Notice', 'Q3 2026', 'publish'],
      ['Sunset Terrace Apartments', 'Capital Call Notice.pdf', 'Capital Call Notice', 'Q3 2026', 'publish'],
    ]);
    expect(run.notSent).toContainEqual({
      path: '2026-Q3/properties/Heartland Plaza/Capital Call Notice - Copy.pdf',
      reason: publishingMessages.twinForProperty('Capital Call Notice.pdf'),
    });
    expect(run.notSent).toContainEqual({ path: '2026-Q3/properties/Heartland Plaza/notes.pdf', reason: publishingMessages.contentNotAsNamed('.pdf') });
    expect(run.notSent).toContainEqual({ path: '2026-Q3/investors/huge.pdf', reason: publishingMessages.tooLarge });

    const [manifest] = run.manifests;
    expect(manifest?.path).toBe('2026-Q3/investors/manifest.csv');
    expect(manifest?.period).toEqual({ year: 2026, quarter: 'Q3' });
    expect(manifest?.encoding).toBe('utf-8');
    const rows = manifest?.plan.rows.map((r) => [r.row, r.outcome, 'year' in r ? `${r.quarter} ${r.year}` : '—']);
    // Case 4: the folder's quarter, unless the row has its own date; case 6: the size reason, not 'file missing'.
    expect(rows).toEqual([
      [2, 'publish', 'Q3 2026'],
      [3, 'publish', 'Q1 2026'],
      [4, 'file-refused', '—'],
      [5, 'user-not-found', '—'],
    ]);
    expect(manifest?.plan.rows[2]).toMatchObject({ error: publishingMessages.tooLarge });
    // The oversized file travels nowhere: not hashed, not sent.
    expect(manifest?.files.map((f) => f.name).sort()).toEqual(['k1-ann.pdf', 'statement.pdf']);
    expect(run.publishing).toBe(4);
  });

  it('says a property document is already published when a document of that property and size has its content', async () => {
    const chosen = chosenFolder(folderFiles());
    const read = await readFiles(chosen.files);
    const existing: PropertyDocument = {
      id: 41,
      title: 'Capital Call',
      property: 'Heartland Plaza',
      year: 2026,
      quarter: 'Q2',
      filename: 'call.pdf',
      fileSize: new Blob([notice]).size,
      uploadedAt: '2026-07-01T00:00:00.000Z',
      fileExists: true,
      documentType: 'property',
      version: 1,
      correctedAt: null,
    } as PropertyDocument;
    const hashOf = vi.fn(async () => sha256Hex(notice));
    const run = await dryRunQuarterFolder(chosen, read, properties, server({ documents: async () => [existing], documentSha256: hashOf }), now);
    expect(run.propertyDocuments.map((d) => [d.property, d.outcome, d.existing?.id ?? null])).toEqual([
      ['Heartland Plaza', 'already-published', 41],
      // The same file for another property is not published there yet.
      ['Sunset Terrace Apartments', 'publish', null],
    ]);
    // Only a candidate of the same property and size is read, and once.
    expect(hashOf).toHaveBeenCalledTimes(1);
    expect(run.publishing).toBe(3);
  });

  it('counts who the digest e-mails: exact for one group, an upper bound across groups', async () => {
    const chosen = chosenFolder(folderFiles());
    const run = await dryRunQuarterFolder(chosen, await readFiles(chosen.files), properties, server(), now);
    const recipients = vi.fn(async (property: string) => ({ recipients: property === 'Heartland Plaza' ? 5 : 0, investorRelations: true }));
    expect(await countRecipients(run, recipients)).toEqual({
      people: 6,
      exact: false,
      groups: [
        { label: 'Heartland Plaza: its readers', people: 5 },
        { label: "Investors' documents: their investors", people: 1 },
      ],
    });
    const personalOnly = { ...run, propertyDocuments: [] };
    expect(await countRecipients(personalOnly, recipients)).toMatchObject({ people: 1, exact: true });
  });
});

describe('a manifest chosen with its documents', () => {
  it("files rows without a date under the form's period, reads Windows-1252, and refuses the whole manifest on a CSV error", async () => {
    // 'Relevé' as Excel on Windows saves it: one byte 0xE9.
    const csv = new Uint8Array([...new TextEncoder().encode(`${header}\nann@example.com,a.pdf,tax,Relev`), 0xe9, 0x2c, 0x0a]);
    const manifest = new File([csv], 'manifest.csv');
    const documents = await readFiles([{ file: new File([pdf('a')], 'a.pdf'), path: 'a.pdf' }]);
    const run = await dryRunManifest(manifest, documents, { year: 2025, quarter: 'Q2' }, server(), now);
    expect(run.manifests[0]?.encoding).toBe('windows-1252');
    expect(run.manifests[0]?.plan.rows[0]).toMatchObject({ outcome: 'publish', title: 'Relevé', year: 2025, quarter: 'Q2' });

    const none = await dryRunManifest(manifest, documents, null, server(), now);
    expect(none.manifests[0]?.plan.rows[0]).toMatchObject({ year: 2026, quarter: 'Q4' });
    // Another period is another batch: its Idempotency-Key differs.
    expect(none.manifests[0]?.key).not.toBe(run.manifests[0]?.key);

    const broken = new File([`${header}\ninvestor2@example.com,d.pdf,tax,"2025 K-1 for the ""Trust\nann@example.com,a.pdf,tax,Other,\n`], 'manifest.csv');
    const refused = await dryRunManifest(broken, documents, null, server(), now);
    expect(refused.error).toBe('Line 2: a quoted field is not closed.');
    expect(refused.manifests[0]?.plan.rows).toEqual([]);
  });
});
