import { FluentProvider } from '@fluentui/react-components';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { BulkUploadPreviewAnswer, PropertyDocument } from '@everest/core/contract';
import type { ManifestFile, Period } from '@everest/core/domain';
import { everestTheme } from '../../../testing/themes';
import type { BatchDryRun, PlannedProperty } from '../lib/bulk-dry-run';
import { planBatch } from '../lib/bulk-plan';
import type { BatchResults } from '../lib/bulk-results';
import { BulkPreview } from './bulk-preview';
import { BulkResults } from './bulk-results';

afterEach(cleanup);

const header = 'email,filename,document_category,title,document_date';
const files: ManifestFile[] = [
  { name: 'a.pdf', size: 1, sha256: 'a'.repeat(64) },
  { name: 'b.pdf', size: 1, sha256: 'b'.repeat(64) },
  { name: 'stray.pdf', size: 1, sha256: 'c'.repeat(64) },
];
const known: BulkUploadPreviewAnswer = { users: [{ email: 'ann@example.com', userId: 1, publishedSha256: ['b'.repeat(64)], documents: [], active: true }] };
const now = new Date('2026-11-27T12:00:00Z');

function run(csv: string, options: { period?: Period | null; propertyDocuments?: PlannedProperty[]; encoding?: 'utf-8' | 'windows-1252' } = {}): BatchDryRun {
  const period = options.period ?? null;
  const plan = planBatch(csv, files, known, { period, now, encoding: options.encoding ?? 'utf-8' });
  const propertyDocuments = options.propertyDocuments ?? [];
  return {
    layout: propertyDocuments.length > 0 ? 'quarter' : 'manifest',
    folderName: propertyDocuments.length > 0 ? '2026-Q3' : null,
    propertyDocuments,
    manifests: [
      { path: 'manifest.csv', manifest: new File([csv], 'manifest.csv'), csvText: csv, encoding: plan.encoding, period, plan, files: [], refused: [], key: 'k', users: known.users },
    ],
    notSent: [],
    error: null,
    publishing: plan.counts.publish + propertyDocuments.filter((d) => d.outcome === 'publish').length,
    nonce: 'n',
  };
}

function renderPreview(dry: BatchDryRun) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <FluentProvider theme={everestTheme}>
      <BulkPreview run={dry} sending={false} onConfirm={onConfirm} onCancel={onCancel} />
    </FluentProvider>,
  );
  return { onConfirm, onCancel };
}

it('shows a row per manifest line with its outcome, the counts, the unprocessed files, and Confirm', () => {
  const csv = `${header}\nann@example.com,a.pdf,tax,K-1,\nann@example.com,b.pdf,legal,Agreement,\nbob@example.com,a.pdf,tax,Bob K-1,\n`;
  const { onConfirm, onCancel } = renderPreview(run(csv));
  const counts = screen.getByRole('list', { name: 'Rows per outcome' });
  expect(within(counts).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
    'Will be published: 1',
    'Already published: 1',
    'User not found: 1',
    'Unprocessed files: 1',
  ]);
  const rows = within(screen.getByRole('table', { name: 'Upload preview' })).getAllByRole('row').slice(1);
  expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['2', '3', '4']);
  expect(rows[0]?.textContent).toContain('Will be published');
  expect(rows[0]?.textContent).toContain('Tax Documents');
  expect(rows[1]?.textContent).toContain('Already published');
  // A refused row still shows the e-mail and title the manifest wrote.
  expect(rows[2]?.textContent).toContain('bob@example.com');
  expect(rows[2]?.textContent).toContain('Bob K-1');
  expect(rows[2]?.textContent).toContain('User not found');
  expect(screen.getByText('stray.pdf')).toBeTruthy();

  fireEvent.click(screen.getByRole('button', { name: 'Confirm & Upload 1 Document' }));
  expect(onConfirm).toHaveBeenCalledOnce();
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(onCancel).toHaveBeenCalledOnce();
});

it("shows each row's period before Confirm: its own date's quarter, else the batch's, and the encoding read (issue 32 case 4)", () => {
  const csv = `${header}\nann@example.com,a.pdf,tax,K-1,\nann@example.com,stray.pdf,tax,Statement,2026-08-03\n`;
  renderPreview(run(csv, { period: { year: 2025, quarter: 'Q2' }, encoding: 'windows-1252' }));
  const table = screen.getByRole('table', { name: 'Upload preview' });
  const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
  expect(headers).toEqual(['Row', 'Outcome', 'E-mail', 'Title', 'Period', 'File']);
  const periods = within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[4]?.textContent);
  expect(periods).toEqual(['Q2 2025', 'Q3 2026']);
  expect(screen.getByText(/Read as Windows-1252 \(Excel\)\. Rows without a document_date are filed under Q2 2025\./)).toBeTruthy();
});

it('offers no Confirm when nothing would be published', () => {
  const { onConfirm } = renderPreview(run(`${header}\nann@example.com,b.pdf,tax,Again,\n`));
  const confirm = screen.getByRole('button', { name: /Confirm & Upload/ });
  expect(confirm.hasAttribute('disabled')).toBe(true);
  fireEvent.click(confirm);
  expect(onConfirm).not.toHaveBeenCalled();
  expect(screen.getByRole('status').textContent).toContain('Nothing new would be published');
});

it("a quarter folder's preview lists the property documents with Title, Property, Period and outcome, beside the manifest", () => {
  const existing = { id: 3, title: 'Q2 Letter', quarter: 'Q2', year: 2026 } as PropertyDocument;
  const property = (title: string, name: string, outcome: PlannedProperty['outcome']): PlannedProperty => ({
    path: `properties/${name}/${title}.pdf`,
    file: new File(['%PDF-'], `${title}.pdf`),
    filename: `${title}.pdf`,
    title,
    property: name,
    year: 2026,
    quarter: 'Q3',
    sha256: title,
    outcome,
    existing: outcome === 'publish' ? null : existing,
    corrects: null,
    noReader: false,
  });
  renderPreview(
    run(`${header}\nann@example.com,a.pdf,tax,K-1,\n`, {
      period: { year: 2026, quarter: 'Q3' },
      propertyDocuments: [property('Q3 Report', 'Heartland Plaza', 'publish'), property('Letter', 'General', 'already-published')],
    }),
  );
  const table = screen.getByRole('table', { name: 'Property documents' });
  expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Outcome', 'Title', 'Property', 'Period', 'File']);
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows[0]?.textContent).toBe('Will be publishedQ3 ReportHeartland PlazaQ3 2026Q3 Report.pdf');
  expect(rows[1]?.textContent).toContain('as "Q2 Letter" (Q2 2026)');
  expect(within(screen.getByRole('list', { name: 'Rows per outcome' })).getAllByRole('listitem')[0]?.textContent).toBe('Will be published: 2');
  expect(screen.getByRole('button', { name: 'Confirm & Upload 2 Documents' })).toBeTruthy();
});

const emptyResults = (overrides: Partial<BatchResults> = {}): BatchResults => ({
  property: { published: [], alreadyPublished: [], failed: [] },
  personal: [],
  personalFailed: [],
  notSent: [],
  notified: null,
  notifyError: null,
  ...overrides,
});

it('the results say when nothing new was published, and list what already was apart from the failures', () => {
  const results = emptyResults({
    personal: [
      {
        message: 'Bulk upload finished',
        successful: [],
        failed: [{ filename: 'c.pdf', error: 'Row 3: User not found' }],
        alreadyPublished: [{ filename: 'b.pdf', userEmail: 'ann@example.com', title: 'Agreement' }],
        unprocessed: ['stray.pdf'],
        totalProcessed: 2,
      },
    ],
  });
  const onClose = vi.fn();
  render(
    <FluentProvider theme={everestTheme}>
      <BulkResults results={results} onClose={onClose} />
    </FluentProvider>,
  );
  expect(screen.getByRole('status').textContent).toBe('Nothing new was published; 1 already published. 1 failed.');
  expect(screen.getByRole('list', { name: 'Already published' }).textContent).toBe('b.pdf: ann@example.com already has it as "Agreement"');
  expect(screen.getByRole('list', { name: 'Failed' }).textContent).toBe('c.pdf: Row 3: User not found');
  expect(screen.getByRole('list', { name: 'Unprocessed' }).textContent).toBe('stray.pdf');
  expect(screen.queryByRole('list', { name: 'Successful' })).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Close Results' }));
  expect(onClose).toHaveBeenCalledOnce();
});

it('the results of a quarter folder name both halves, their periods, and how many people were e-mailed', () => {
  const results = emptyResults({
    property: {
      published: [{ filename: 'Q3 Report.pdf', title: 'Q3 Report', property: 'Heartland Plaza', year: 2026, quarter: 'Q3', documentId: 1 }],
      alreadyPublished: [],
      failed: [],
    },
    personal: [
      {
        message: 'ok',
        successful: [{ filename: 'k1.pdf', userEmail: 'ann@example.com', title: 'K-1', documentId: 2, year: 2026, quarter: 'Q3' }],
        failed: [],
        alreadyPublished: [],
        unprocessed: [],
        totalProcessed: 1,
      },
    ],
    notSent: [{ path: '2026-Q3/investors/notes.pdf', reason: 'The file is empty.' }],
    notified: 4,
  });
  render(
    <FluentProvider theme={everestTheme}>
      <BulkResults results={results} onClose={() => {}} />
    </FluentProvider>,
  );
  expect(screen.getByRole('status').textContent).toBe(
    '2 documents published (1 property, 1 personal). 4 people were e-mailed, one e-mail each listing all of their new documents.',
  );
  expect(within(screen.getByRole('list', { name: 'Successful' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
    'Q3 Report.pdf: "Q3 Report" for Heartland Plaza, Q3 2026',
    'k1.pdf: "K-1" for ann@example.com, Q3 2026',
  ]);
  expect(screen.getByRole('list', { name: 'Not sent' }).textContent).toBe('2026-Q3/investors/notes.pdf: The file is empty.');
});
