import { FluentProvider } from '@fluentui/react-components';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { BulkUploadUserDocumentsAnswer } from '@everest/core/contract';
import { everestTheme } from '../../../lib/theme';
import { planBatch } from '../lib/bulk-plan';
import { BulkPreview } from './bulk-preview';
import { BulkResults } from './bulk-results';

afterEach(cleanup);

const header = 'email,filename,document_category,title';
const files = [
  { name: 'a.pdf', size: 1, sha256: 'a'.repeat(64) },
  { name: 'b.pdf', size: 1, sha256: 'b'.repeat(64) },
  { name: 'stray.pdf', size: 1, sha256: 'c'.repeat(64) },
];
const known = { users: [{ email: 'ann@example.com', userId: 1, publishedSha256: ['b'.repeat(64)], titles: [] }] };

function renderPreview(csv: string) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <FluentProvider theme={everestTheme}>
      <BulkPreview plan={planBatch(csv, files, known)} csvText={csv} refused={[]} sending={false} onConfirm={onConfirm} onCancel={onCancel} />
    </FluentProvider>,
  );
  return { onConfirm, onCancel };
}

it('shows a row per manifest line with its outcome, the counts, the unprocessed files, and Confirm', () => {
  const csv = `${header}\nann@example.com,a.pdf,tax,K-1\nann@example.com,b.pdf,legal,Agreement\nbob@example.com,a.pdf,tax,Bob K-1\n`;
  const { onConfirm, onCancel } = renderPreview(csv);
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

it('offers no Confirm when nothing would be published', () => {
  const { onConfirm } = renderPreview(`${header}\nann@example.com,b.pdf,tax,Again\n`);
  const confirm = screen.getByRole('button', { name: /Confirm & Upload/ });
  expect(confirm.hasAttribute('disabled')).toBe(true);
  fireEvent.click(confirm);
  expect(onConfirm).not.toHaveBeenCalled();
  expect(screen.getByRole('status').textContent).toContain('Nothing new would be published');
});

it('the results say when nothing new was published, and list failures with their file', () => {
  const results: BulkUploadUserDocumentsAnswer = {
    message: 'Bulk upload finished',
    successful: [],
    failed: [{ filename: 'b.pdf', error: 'Row 2: Already published for this investor with the same content' }],
    alreadyPublished: [],
    unprocessed: ['stray.pdf'],
    totalProcessed: 1,
  };
  const onClose = vi.fn();
  render(
    <FluentProvider theme={everestTheme}>
      <BulkResults results={results} onClose={onClose} />
    </FluentProvider>,
  );
  expect(screen.getByRole('status').textContent).toBe('Nothing new was published. 1 row processed.');
  expect(screen.getByRole('list', { name: 'Failed' }).textContent).toBe('b.pdf: Row 2: Already published for this investor with the same content');
  expect(screen.getByRole('list', { name: 'Unprocessed' }).textContent).toBe('stray.pdf');
  expect(screen.queryByRole('list', { name: 'Successful' })).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Close Results' }));
  expect(onClose).toHaveBeenCalledOnce();
});
