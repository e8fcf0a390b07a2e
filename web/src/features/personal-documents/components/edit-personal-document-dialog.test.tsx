import { useState } from 'react';
import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { PersonalDocument } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import { createQueryClient } from '../../../lib/query-client';
import { everestTheme } from '../../../testing/themes';
import { EditPersonalDocumentDialog } from './edit-personal-document-dialog';

// Two shared CPUs: Fluent's first render can take longer than Testing Library's default second.
configure({ asyncUtilTimeout: 10_000 });
vi.mock('../../../lib/toast', () => ({ showToast: vi.fn() }));

// Without `animate` Fluent takes its test path and skips the dialog's motion (see users-tab.test).
const animate = Element.prototype.animate;
beforeAll(() => {
  Reflect.deleteProperty(Element.prototype, 'animate');
});
afterAll(() => {
  Element.prototype.animate = animate;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const document: PersonalDocument = {
  id: 7,
  title: 'K-1 2025',
  documentCategory: 'tax',
  description: '',
  documentDate: null,
  tags: 'k-1',
  userEmail: 'investor@example.com',
  assignedUserId: 3,
  uploadedAt: '2026-01-01T00:00:00.000Z',
  filename: 'k1.pdf',
  fileSize: 10,
  documentType: 'personal',
  year: 2026,
  quarter: 'Q1',
  fileExists: true,
  version: 1,
  correctedAt: null,
};

function Harness() {
  const [open, setOpen] = useState<PersonalDocument | null>(document);
  return (
    <>
      <button type="button" onClick={() => setOpen(document)}>
        Reopen
      </button>
      <EditPersonalDocumentDialog document={open} onClose={() => setOpen(null)} />
    </>
  );
}

function renderHarness() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FluentProvider theme={everestTheme}>
        <Harness />
      </FluentProvider>
    </QueryClientProvider>,
  );
}

it('asks for both title and category before sending anything', async () => {
  const fetch = vi.fn();
  vi.stubGlobal('fetch', fetch);
  renderHarness();
  const title = await screen.findByRole('textbox', { name: /Document Title/ });
  fireEvent.change(title, { target: { value: '  ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
  expect((await screen.findByRole('alert')).textContent).toBe(portalMessages.fillTitleAndCategory);
  expect(fetch).not.toHaveBeenCalled();
});

it('Cancel closes the modal and clears what was typed: reopening shows the saved document', async () => {
  renderHarness();
  const title = await screen.findByRole('textbox', { name: /Document Title/ });
  fireEvent.change(title, { target: { value: 'half typed' } });
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  // The page behind the modal is hidden from assistive technology until the modal has fully
  // gone, a moment after the dialog role itself (under load, long enough for a query to land in
  // between): wait for the button as a user reaches it.
  fireEvent.click(await screen.findByRole('button', { name: 'Reopen' }));
  expect(((await screen.findByRole('textbox', { name: /Document Title/ })) as HTMLInputElement).value).toBe('K-1 2025');
});
