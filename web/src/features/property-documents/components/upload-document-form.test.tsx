import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type * as UploadDocumentModule from '../../../lib/admin/api/upload-document';
import type { UploadDocumentInput } from '../../../lib/admin/api/upload-document';
import { createQueryClient } from '../../../lib/query-client';
import { everestTheme } from '../../../testing/themes';
import { UploadDocumentForm } from './upload-document-form';

configure({ asyncUtilTimeout: 10_000 });
// Fluent's first render on the shared machine takes seconds (see users-tab.test).
vi.setConfig({ testTimeout: 30_000 });
vi.mock('../../../lib/toast', () => ({ showToast: vi.fn() }));

// The upload itself goes through XMLHttpRequest: recorded here, answered or failed as told.
const uploads: UploadDocumentInput[] = [];
let failNext = false;
vi.mock('../../../lib/admin/api/upload-document', async (original) => {
  const actual = await original<typeof UploadDocumentModule>();
  const { useMutation } = await import('@tanstack/react-query');
  return {
    ...actual,
    useUploadDocument: () =>
      useMutation({
        mutationFn: async (input: UploadDocumentInput) => {
          uploads.push(input);
          if (failNext) {
            failNext = false;
            throw new Error('Could not reach the server.');
          }
          return {
            message: 'ok',
            document: { id: 1, title: input.fields.title, property: input.fields.property, year: input.fields.year, quarter: input.fields.quarter },
          };
        },
      }),
  };
});

const animate = Element.prototype.animate;
beforeAll(() => {
  Reflect.deleteProperty(Element.prototype, 'animate');
});
afterAll(() => {
  Element.prototype.animate = animate;
});

const recipients: Record<string, { recipients: number; investorRelations: boolean }> = {
  General: { recipients: 40, investorRelations: true },
  'Heartland Plaza': { recipients: 12, investorRelations: true },
  'Fig Garden Court': { recipients: 0, investorRelations: false },
};

beforeEach(() => {
  uploads.length = 0;
  failNext = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      const answer =
        url.pathname === '/api/admin/all-properties'
          ? {
              properties: [
                { name: 'Heartland Plaza', investorRelations: true },
                { name: 'Fig Garden Court', investorRelations: false },
              ].map((p, id) => ({ id, type: 'retail', status: 'active', address: '', city: '', state: '', zipCode: '', phone: null, website: null, latitude: null, longitude: null, image: null, imageVariants: null, ...p })),
            }
          : url.pathname === '/api/admin/document-recipients'
            ? recipients[url.searchParams.get('property') ?? '']
            : { error: 'Not stubbed' };
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderForm() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FluentProvider theme={everestTheme}>
        <UploadDocumentForm />
      </FluentProvider>
    </QueryClientProvider>,
  );
}

async function fill(property: string) {
  fireEvent.change(screen.getByRole('textbox', { name: /Title/ }), { target: { value: 'Q3 Report' } });
  const picker = screen.getByRole('combobox', { name: /Property/ });
  await screen.findByRole('option', { name: 'Fig Garden Court (not shown to investors)' });
  fireEvent.change(picker, { target: { value: property } });
  const file = new File(['%PDF-1.4'], 'q3.pdf', { type: 'application/pdf' });
  fireEvent.change(screen.getByLabelText(/^File/), { target: { files: [file] } });
}

it('warns as soon as a property no investor can read is chosen, before any upload', async () => {
  renderForm();
  await fill('Fig Garden Court');
  expect((await screen.findByTestId('no-reader-warning')).textContent).toContain('No investor can see this document');
  expect(uploads).toHaveLength(0);
  fireEvent.change(screen.getByRole('combobox', { name: /Property/ }), { target: { value: 'Heartland Plaza' } });
  await waitFor(() => expect(screen.queryByTestId('no-reader-warning')).toBeNull());
});

it('with notification, says how many people it will e-mail and sends nothing on Cancel', async () => {
  renderForm();
  await fill('Heartland Plaza');
  fireEvent.click(screen.getByRole('checkbox', { name: /Send an email notification/ }));
  fireEvent.click(screen.getByRole('button', { name: 'Upload Document' }));
  // happy-dom leaves tabster's modalizer marking the dialog itself aria-hidden (the e2e test
  // checks it in Chromium): the dialog's parts are looked up regardless.
  const dialog = await screen.findByRole('alertdialog', { name: 'This will e-mail 12 people', hidden: true });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel', hidden: true }));
  await waitFor(() => expect(screen.queryByRole('alertdialog', { hidden: true })).toBeNull());
  expect(uploads).toHaveLength(0);

  fireEvent.click(screen.getByRole('button', { name: 'Upload Document' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Upload and Send E-mails', hidden: true }));
  await waitFor(() => expect(uploads).toHaveLength(1));
  expect(uploads[0]?.fields).toMatchObject({ property: 'Heartland Plaza', emailNotification: true });
});

it('sends the same Idempotency-Key when the same submission is retried, and a new one for the next upload', async () => {
  renderForm();
  await fill('Heartland Plaza');
  failNext = true;
  fireEvent.click(screen.getByRole('button', { name: 'Upload Document' }));
  await waitFor(() => expect(uploads).toHaveLength(1));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Upload Document' }).getAttribute('aria-disabled')).not.toBe('true'));
  // Pressed again after the lost answer: the same key, so the server answers the first result.
  fireEvent.click(screen.getByRole('button', { name: 'Upload Document' }));
  await waitFor(() => expect(uploads).toHaveLength(2));
  expect(uploads[1]?.idempotencyKey).toBe(uploads[0]?.idempotencyKey);
  expect(uploads[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{32,36}$/);

  // After a success, the next upload is a new submission with a new key.
  await fill('Heartland Plaza');
  fireEvent.click(screen.getByRole('button', { name: 'Upload Document' }));
  await waitFor(() => expect(uploads).toHaveLength(3));
  expect(uploads[2]?.idempotencyKey).not.toBe(uploads[0]?.idempotencyKey);
});
