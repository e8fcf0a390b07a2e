import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { RemindAnswer } from '@everest/core/contract';
import { createQueryClient } from '../../../lib/query-client';
import { everestTheme } from '../../../testing/themes';
import { showToast } from '../../../lib/toast';
import { RemindButton, reminderSummary } from './receipt-parts';

configure({ asyncUtilTimeout: 10_000 });
vi.mock('../../../lib/toast', () => ({ showToast: vi.fn() }));

// Fluent's dialog takes its test path (no motion) without Element.animate (see users-tab.test).
const animate = Element.prototype.animate;
beforeAll(() => {
  Reflect.deleteProperty(Element.prototype, 'animate');
});
afterAll(() => {
  Element.prototype.animate = animate;
});

const answer = (investors: number, overrides: Partial<RemindAnswer> = {}): RemindAnswer => ({
  message: 'server words',
  remindedInvestors: investors,
  remindedDocuments: investors,
  distinctDocuments: 1,
  skippedRecent: 0,
  remindedAt: '2026-11-27T12:00:00.000Z',
  ...overrides,
});

let bodies: Record<string, unknown>[] = [];
let next: RemindAnswer;

beforeEach(() => {
  bodies = [];
  next = answer(12);
  vi.mocked(showToast).mockClear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      bodies.push(body);
      return new Response(JSON.stringify(next), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderButton() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FluentProvider theme={everestTheme}>
        <RemindButton label="Remind those who have not opened it" body={{ documents: [{ documentType: 'property', id: 7 }] }} disabled={false} lastRemindedAt={null} />
      </FluentProvider>
    </QueryClientProvider>,
  );
}

it('asks who would be reminded, says "This will e-mail N people", and sends nothing on Cancel', async () => {
  renderButton();
  const button = screen.getByRole('button', { name: 'Remind those who have not opened it' });
  fireEvent.click(button);
  const dialog = await screen.findByRole('alertdialog', { name: 'This will e-mail 12 people' });
  expect(bodies).toEqual([{ documents: [{ documentType: 'property', id: 7 }], dryRun: true }]);
  expect(dialog.textContent).toContain('1 document in all');
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  expect(bodies).toHaveLength(1);
  expect(showToast).not.toHaveBeenCalled();
});

it('sends once confirmed, and the toast counts the documents once each', async () => {
  renderButton();
  fireEvent.click(screen.getByRole('button', { name: 'Remind those who have not opened it' }));
  await screen.findByRole('alertdialog', { name: 'This will e-mail 12 people' });
  fireEvent.click(screen.getByRole('button', { name: 'Send Reminders' }));
  await waitFor(() => expect(showToast).toHaveBeenCalledOnce());
  expect(bodies[1]).toEqual({ documents: [{ documentType: 'property', id: 7 }] });
  expect(vi.mocked(showToast).mock.calls[0]?.[0]).toMatchObject({
    title: 'Reminder Sent',
    description: 'Reminded 12 investors of 1 unopened document.',
  });
});

it('says at once that nobody would be reminded, without a dialog', async () => {
  next = answer(0, { remindedDocuments: 0, distinctDocuments: 0, skippedRecent: 3 });
  renderButton();
  fireEvent.click(screen.getByRole('button', { name: 'Remind those who have not opened it' }));
  await waitFor(() => expect(showToast).toHaveBeenCalledOnce());
  expect(vi.mocked(showToast).mock.calls[0]?.[0]).toMatchObject({
    title: 'Nobody Reminded',
    description: 'Nobody was reminded. 3 reminders were left out: sent within the last 7 days.',
  });
  expect(screen.queryByRole('alertdialog')).toBeNull();
  expect(bodies).toHaveLength(1);
});

it('falls back to the pairs when the server does not count distinct documents', () => {
  expect(reminderSummary(answer(2, { remindedDocuments: 3, distinctDocuments: undefined }))).toBe('Reminded 2 investors of 3 unopened documents.');
  expect(reminderSummary(answer(1, { remindedDocuments: 1, distinctDocuments: 1 }))).toBe('Reminded 1 investor of 1 unopened document.');
});
