import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { BackupSummary, SystemStatusAnswer } from '@everest/core/contract';
import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient } from '../../../lib/query-client';
import { everestTheme } from '../../../testing/themes';
import { SystemTab } from './system-tab';

// The tab against a network that answers like the server's GET /api/admin/system: only fetch is
// replaced, and every answer still passes the contract's check in the API client.

configure({ asyncUtilTimeout: 10_000 });

// happy-dom's Web Animations reject when Fluent's motion is cancelled at unmount; without
// `animate` Fluent takes its test path and skips the motion.
const animate = Element.prototype.animate;
beforeAll(() => {
  Reflect.deleteProperty(Element.prototype, 'animate');
});
afterAll(() => {
  Element.prototype.animate = animate;
});

const lastBackup: BackupSummary = {
  finishedAt: '2026-11-30T10:00:00.000Z',
  sizeBytes: 5 * 1024 * 1024,
  filesCopied: 3,
  filesTotal: 1204,
  location: '/srv/backups',
  archive: 'everest-2026-11-30T10-00-00Z.tar.gz',
  sameDisk: false,
  trigger: 'schedule',
};

const healthy: SystemStatusAnswer = {
  warnings: [],
  backups: {
    schedule: '0 2 * * *',
    timeZone: 'America/Los_Angeles',
    next: '2026-12-01T10:00:00.000Z',
    location: '/srv/backups',
    sameDisk: false,
    keep: { daily: 7, weekly: 4, monthly: 12 },
    lastSuccess: lastBackup,
    lastFailure: null,
    runningSince: null,
  },
  outbox: {
    lanes: [
      { lane: 'transactional', pending: 0, givenUp: 0 },
      { lane: 'bulk', pending: 12, givenUp: 0 },
    ],
  },
  disk: { path: '/srv/everest', freeBytes: 200 * 1024 ** 3, totalBytes: 500 * 1024 ** 3 },
  database: { sizeBytes: 80 * 1024 * 1024, embedded: false },
  version: '2.4.0',
  migration: 'Migration20261130_system',
};

/** What the server answers next: a status, or a failure with its sentence. */
let answers: ({ status: SystemStatusAnswer } | { error: string })[] = [];
let asked = 0;

function json(value: unknown, status = 200) {
  return new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  answers = [];
  asked = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname !== '/api/admin/system') return json({ error: 'Not stubbed' }, 500);
      asked += 1;
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      if (!answer) return json({ error: 'No answer prepared' }, 500);
      return 'error' in answer ? json({ error: answer.error }, 500) : json(answer.status);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderTab(...next: typeof answers) {
  answers = next;
  return renderWith(createQueryClient());
}

function renderWith(client: QueryClient) {
  return render(
    <QueryClientProvider client={client}>
      <FluentProvider theme={everestTheme}>
        <SystemTab />
      </FluentProvider>
    </QueryClientProvider>,
  );
}

const section = (name: string) => screen.getByRole('region', { name });

it("shows the server's warnings at the top, each with its sentence, and no all-is-well bar", async () => {
  const failed = 'The backup of Nov 30 failed: the backup folder is full. Free space there, then run the backup again.';
  const givenUp = '2 e-mails were given up. Fix the mail settings, then retry them.';
  renderTab({
    status: {
      ...healthy,
      warnings: [
        { kind: 'backup-failed', message: failed },
        { kind: 'mail-given-up', message: givenUp },
      ],
    },
  });
  const list = await screen.findByRole('list', { name: 'Needs your attention' });
  const items = within(list).getAllByRole('listitem');
  expect(items.map((item) => item.textContent)).toEqual([failed, givenUp]);
  expect(screen.queryByText(/All is well/)).toBeNull();
});

it('says all is well when the server has no warning', async () => {
  renderTab({ status: healthy });
  await screen.findByText('All is well:');
  expect(screen.queryByRole('list', { name: 'Needs your attention' })).toBeNull();
});

it("shows the last good backup's time, size, files and place, marked when it is on the data's disk", async () => {
  const lastSuccess: BackupSummary = { ...lastBackup, sameDisk: true, trigger: 'command' };
  renderTab({ status: { ...healthy, backups: { ...healthy.backups, lastSuccess, sameDisk: true } } });
  await screen.findByRole('region', { name: 'Backups' });
  const backups = section('Backups');
  const value = (term: string) => within(backups).getByText(term).nextElementSibling?.textContent;
  expect(value('Last good backup')).toBe('Nov 30, 2026, 2:00 AM Pacific Time, started by an operator');
  expect(value('Its size')).toMatch(/^5\.0 MB/);
  expect(value('Files')).toBe('3 of 1,204 copied (the other 1,201 were already in an earlier backup)');
  expect(value('Stored in')).toBe('/srv/backups (same disk as the data)Archive: everest-2026-11-30T10-00-00Z.tar.gz');
  expect(value('Next backup')).toBe('Dec 1, 2026, 2:00 AM Pacific Time');
  expect(value('Schedule')).toBe('Every day at 2:00 AM, America/Los_Angeles time');
  expect(value('Old backups')).toBe('Keeps 7 daily, 4 weekly and 12 monthly backups');
});

it('says scheduled backups are off when there is no schedule', async () => {
  renderTab({ status: { ...healthy, backups: { ...healthy.backups, schedule: null, next: null } } });
  await screen.findByRole('region', { name: 'Backups' });
  within(section('Backups')).getByText('Scheduled backups are off');
  expect(within(section('Backups')).queryByText('Schedule')).toBeNull();
});

it('tells how to send given-up e-mail again once the cause is fixed, and only then', async () => {
  const lanes = [
    { lane: 'transactional' as const, pending: 1, givenUp: 0 },
    { lane: 'bulk' as const, pending: 0, givenUp: 2 },
  ];
  const view = renderTab({ status: { ...healthy, outbox: { lanes } } });
  await screen.findByRole('region', { name: 'E-mail' });
  const mail = section('E-mail');
  within(mail).getByText('Batch e-mail');
  expect(mail.textContent).toContain('0 waiting to be sent, 2 given up');
  expect(mail.textContent).toContain('Once the cause is fixed');
  within(mail).getByText('node server/dist/cli.js mail:retry');
  view.unmount();

  renderTab({ status: healthy });
  await screen.findByRole('region', { name: 'E-mail' });
  expect(within(section('E-mail')).queryByText('node server/dist/cli.js mail:retry')).toBeNull();
});

it("shows the server's sentence when the state cannot be loaded, and Try again asks again", async () => {
  renderTab({ error: 'The backup records could not be read.' }, { status: healthy });
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('The backup records could not be read.');
  expect(asked).toBe(1);

  fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
  await screen.findByRole('region', { name: 'Backups' });
  expect(asked).toBe(2);
  expect(screen.queryByRole('alert')).toBeNull();
});

it('asks again whenever the tab opens and every minute while it is open, though the app keeps data forever', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  try {
    const client = createQueryClient();
    answers = [{ status: healthy }];
    const first = renderWith(client);
    await screen.findByRole('region', { name: 'Backups' });
    expect(asked).toBe(1);
    first.unmount();

    renderWith(client);
    await screen.findByRole('region', { name: 'Backups' });
    await vi.waitFor(() => expect(asked).toBe(2));

    await act(() => vi.advanceTimersByTimeAsync(60_000));
    await vi.waitFor(() => expect(asked).toBe(3));
  } finally {
    vi.useRealTimers();
  }
});

it('keeps the last answer on screen when a check fails, and says how old it is', async () => {
  renderTab({ status: healthy }, { error: 'The server is restarting.' });
  await screen.findByRole('region', { name: 'Backups' });
  fireEvent.click(screen.getByRole('button', { name: 'Check now' }));
  await screen.findByText(/Could not check again \(The server is restarting\.\)\. What follows is as of .+ Pacific Time\./);
  screen.getByRole('region', { name: 'Backups' });
});
