import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type * as CorrectDocumentModule from '../../lib/admin/api/correct-document';
import type { CorrectDocumentInput, CorrectionAnswer } from '../../lib/admin/api/correct-document';
import { createQueryClient } from '../../lib/query-client';
import { everestTheme } from '../../testing/themes';
import { showToast } from '../../lib/toast';
import { CorrectDocumentDialog } from './correct-document-dialog';

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });
vi.mock('../../lib/toast', () => ({ showToast: vi.fn() }));

const sent: CorrectDocumentInput[] = [];
let answer: CorrectionAnswer;
vi.mock('../../lib/admin/api/correct-document', async (original) => {
  const actual = await original<typeof CorrectDocumentModule>();
  const { useMutation } = await import('@tanstack/react-query');
  return {
    ...actual,
    useCorrectDocument: () =>
      useMutation({
        mutationFn: async (input: CorrectDocumentInput) => {
          sent.push(input);
          return answer;
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

beforeEach(() => {
  sent.length = 0;
  answer = { message: 'ok', corrected: true, document: { title: 'Q3 Report', version: 2 } };
  vi.mocked(showToast).mockClear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      const body = url.pathname === '/api/admin/document-recipients' ? { recipients: 12, investorRelations: true } : { error: 'Not stubbed' };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderDialog() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FluentProvider theme={everestTheme}>
        <CorrectDocumentDialog target={{ kind: 'property', id: 7, title: 'Q3 Report', destination: 'Heartland Plaza' }} onClose={() => {}} />
      </FluentProvider>
    </QueryClientProvider>,
  );
  // happy-dom leaves tabster's modalizer marking the dialog aria-hidden: looked up regardless.
  return screen.getByRole('dialog', { hidden: true });
}

function chooseFile(dialog: HTMLElement) {
  const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [new File(['%PDF-1.4'], 'q3.pdf', { type: 'application/pdf' })] } });
}

it('says how many readers the correction e-mails, on its button too, and sends the destination it was listed under', async () => {
  const dialog = renderDialog();
  await within(dialog).findByText('This will e-mail 12 people.');
  chooseFile(dialog);
  fireEvent.click(within(dialog).getByRole('button', { name: 'Publish Correction and E-mail 12 People', hidden: true }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({ kind: 'property', documentId: 7, destination: 'Heartland Plaza', emailNotification: true });
  // Without the e-mail, nobody is counted and the button says nothing of it.
  fireEvent.click(within(dialog).getByRole('checkbox', { name: /email notification/, hidden: true }));
  expect(within(dialog).getByText('Nobody will be e-mailed.')).toBeTruthy();
  expect(within(dialog).getByRole('button', { name: 'Publish Correction', hidden: true })).toBeTruthy();
});

it("says 'Nothing Changed' when the file is the one the document already has", async () => {
  answer = { message: 'ok', unchanged: true, document: { title: 'Q3 Report', version: 1 } };
  const dialog = renderDialog();
  await within(dialog).findByText('This will e-mail 12 people.');
  chooseFile(dialog);
  fireEvent.click(within(dialog).getByRole('button', { name: /Publish Correction/, hidden: true }));
  await waitFor(() => expect(showToast).toHaveBeenCalledOnce());
  expect(vi.mocked(showToast).mock.calls[0]?.[0]).toMatchObject({
    title: 'Nothing Changed',
    description: 'The file is the one Q3 Report already has: nothing changed, and nobody was e-mailed.',
  });
});
