import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { ImportPreview } from '@everest/core/contract';
import { maxImportCsvBytes, portalMessages } from '@everest/core/domain';
import { createQueryClient } from '../../lib/query-client';
import { everestTheme } from '../../testing/themes';
import { AdminPanel } from '.';

// The Bulk Import tab's rules against the real parser of core (no worker in happy-dom, so the
// same function runs on the page) and a network that answers like the server: only fetch is
// replaced, nothing of ours.

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

const header = 'email,firstName,lastName,entity,role,propertyAccess,streetAddress,city,state,zipCode';
const newUserRow = 'nina.park@example.com,Nina,Park,,user,,,,,';
const existingUserRow = 'investor@example.com,James,Carter,,user,,2250 Lombardy Rd.,,,';
const badEmailRow = 'not-an-email,Pat,Morgan,,user,,,,,';

let previewAnswer: ImportPreview;
/** While set, the server's preview answers only when it settles. */
let previewHeld: Promise<void> | null = null;
let sent: { path: string; body: unknown }[] = [];

function json(value: unknown, status = 200) {
  return new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  sent = [];
  previewAnswer = { newUsers: [], existingUsers: [], errors: [], staffRows: [] };
  previewHeld = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      sent.push({ path: url.pathname, body });
      switch (url.pathname) {
        case '/api/admin/investor-properties':
          return json({ properties: [] });
        case '/api/admin/preview-bulk-import':
          await previewHeld;
          return json({ success: true, preview: previewAnswer });
        case '/api/admin/bulk-import-users':
          return json({
            success: true,
            message: 'Imported.',
            results: { imported: 1, updated: 0, skipped: 0, failed: 0, emailsSent: 0, propertyUpdateEmailsSent: 0, errors: [] },
          });
        default:
          return json({ error: 'Not stubbed' }, 500);
      }
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderTab() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FluentProvider theme={everestTheme}>
        <AdminPanel initialTab="bulk-import" />
      </FluentProvider>
    </QueryClientProvider>,
  );
}

const fileInput = () => screen.getByLabelText(/^CSV file/) as HTMLInputElement;
const previewButton = () => screen.getByRole('button', { name: 'Preview Import' });
const confirmButton = () => screen.getByRole('button', { name: 'Confirm & Import Users' });

function choose(file: File) {
  fireEvent.change(fileInput(), { target: { files: [file] } });
}
const csv = (...rows: string[]) => new File([[header, ...rows].join('\n')], 'investors.csv', { type: 'text/csv' });

it('keeps Preview Import disabled until a CSV file is chosen, and says why', () => {
  renderTab();
  expect(previewButton()).toHaveProperty('disabled', true);
  screen.getByText(portalMessages.selectCsvFirst);

  choose(csv(newUserRow));
  expect(previewButton()).toHaveProperty('disabled', false);
  expect(screen.queryByText(portalMessages.selectCsvFirst)).toBeNull();
});

it('refuses a file over 5 MB when it is chosen, and a file that is not a CSV', () => {
  renderTab();
  choose(new File([new Uint8Array(maxImportCsvBytes + 1)], 'huge.csv', { type: 'text/csv' }));
  screen.getByText('huge.csv is larger than 5 MB. Please split it into smaller files.');
  expect(previewButton()).toHaveProperty('disabled', true);

  // Exactly 5 MB is allowed.
  choose(new File([new Uint8Array(maxImportCsvBytes)], 'limit.csv', { type: 'text/csv' }));
  expect(screen.queryByText(/is larger than 5 MB/)).toBeNull();
  expect(previewButton()).toHaveProperty('disabled', false);

  choose(new File(['x'], 'investors.xlsx'));
  screen.getByText('investors.xlsx is not a CSV file. Please choose a .csv file.');
  expect(previewButton()).toHaveProperty('disabled', true);
});

it('shows row errors with their file line from the browser, sends every row with its line, and shows the server\'s counts', async () => {
  previewAnswer = {
    newUsers: [{ email: 'nina.park@example.com', firstName: 'Nina', lastName: 'Park', entity: '', role: 'user', propertyAccess: [], identifiers: [] }],
    existingUsers: [],
    errors: [{ row: 4, error: 'Email is not a valid email address.' }],
    staffRows: [],
  };
  let release = () => {};
  previewHeld = new Promise((resolve) => (release = resolve));
  renderTab();
  // Line 3 is blank (ignored but counted), so the bad row is line 4 of the file.
  choose(new File([[header, newUserRow, '', badEmailRow].join('\r\n')], 'investors.csv'));
  fireEvent.click(previewButton());

  // The browser's findings show while the server has not answered yet.
  const heading = await screen.findByRole('heading', { name: 'Import Preview' });
  const preview = heading.closest('section') as HTMLElement;
  const errors = await within(preview).findByRole('region', { name: 'Errors (will be skipped)' });
  within(errors).getByText('Row 4');
  within(errors).getByText('Email is not a valid email address.');
  within(preview).getByText(/read as UTF-8, columns separated by comma/);
  within(preview).getByText('Checking 2 rows with the server...');
  expect(within(preview).queryByLabelText('Import summary')).toBeNull();
  expect(document.activeElement).toBe(heading);
  release();

  const counts = await within(preview).findByLabelText('Import summary');
  expect(counts.textContent).toContain('New Users1will be created');
  expect(counts.textContent).toContain('Existing Users0');
  expect(counts.textContent).toContain('Errors1need attention');

  const previewCall = sent.find((c) => c.path === '/api/admin/preview-bulk-import');
  expect(previewCall?.body).toEqual({
    csvData: [
      { line: 2, email: 'nina.park@example.com', firstName: 'Nina', lastName: 'Park', role: 'user' },
      { line: 4, email: 'not-an-email', firstName: 'Pat', lastName: 'Morgan', role: 'user' },
    ],
    defaultRole: 'user',
  });
  expect(confirmButton()).toHaveProperty('disabled', false);
});

it('disables Confirm & Import Users when nothing would change', async () => {
  renderTab();
  choose(csv(existingUserRow));
  fireEvent.click(previewButton());
  await screen.findByLabelText('Import summary');
  expect(confirmButton()).toHaveProperty('disabled', true);
  screen.getByText('Nothing would change: there are no new users and no changes to existing users.');
});

it('counts changed existing users as a change only when duplicates are updated', async () => {
  previewAnswer = {
    newUsers: [],
    existingUsers: [
      {
        email: 'investor@example.com',
        hasChanges: true,
        changes: { streetAddress: { from: '', to: '2250 Lombardy Rd.' } },
        newPropertyAccess: [],
        newIdentifiers: [],
        removedIdentifiers: [],
      },
    ],
    errors: [],
    staffRows: [],
  };
  renderTab();
  choose(csv(existingUserRow));
  fireEvent.click(previewButton());
  // Skip (the default) leaves existing users as they are: the list says so, and nothing would change.
  const skipped = await screen.findByRole('region', { name: 'Existing Users to Skip' });
  within(skipped).getByText('streetAddress: (empty) → 2250 Lombardy Rd.');
  expect(confirmButton()).toHaveProperty('disabled', true);
  fireEvent.change(screen.getByRole('combobox', { name: 'Duplicate handling' }), { target: { value: 'update' } });
  expect(confirmButton()).toHaveProperty('disabled', false);
  screen.getByRole('region', { name: 'Existing Users to Update' });
});

it('holds back a row whose cell is too long to send, and counts it among the errors', async () => {
  const longCity = 'x'.repeat(1001);
  renderTab();
  choose(csv(newUserRow, `lee.ray@example.com,Lee,Ray,,user,,,${longCity},,`));
  fireEvent.click(previewButton());
  const counts = await screen.findByLabelText('Import summary');
  expect(counts.textContent).toContain('Errors1need attention');
  const body = sent.find((c) => c.path === '/api/admin/preview-bulk-import')?.body as { csvData: { line: number }[] };
  expect(body.csvData.map((r) => r.line)).toEqual([2]);
  within(screen.getByRole('region', { name: 'Errors (will be skipped)' })).getByText('Row 3');
});

it('lists a new administrator apart and keeps Import disabled until that row is confirmed', async () => {
  const adminRow = 'ada.admin@example.com,Ada,Admin,,administrator,,,,,';
  previewAnswer = {
    newUsers: [{ email: 'ada.admin@example.com', firstName: 'Ada', lastName: 'Admin', entity: '', role: 'administrator', propertyAccess: [], identifiers: [] }],
    existingUsers: [],
    errors: [],
    staffRows: [
      { row: 2, email: 'ada.admin@example.com', firstName: 'Ada', lastName: 'Admin', entity: '', role: 'administrator', previousRole: null, change: 'new' },
    ],
  };
  renderTab();
  choose(csv(adminRow));
  fireEvent.click(previewButton());
  const staff = await screen.findByRole('region', { name: 'Staff accounts in this import' });
  within(staff).getByText('ada.admin@example.com');
  within(staff).getByText('Administrator, new account');
  within(screen.getByRole('region', { name: 'New Users' })).getByText('Ada Admin · Administrator · 0 properties');

  const tick = screen.getByRole('checkbox', { name: 'I confirm this staff account: ada.admin@example.com as Administrator' });
  expect(confirmButton()).toHaveProperty('disabled', true);
  expect(confirmButton().getAttribute('aria-describedby')).toBe('bulk-import-staff-reason');
  screen.getByText('Confirm the staff accounts above first.');

  fireEvent.click(tick);
  expect(confirmButton()).toHaveProperty('disabled', false);
  fireEvent.click(confirmButton());
  await screen.findByRole('heading', { name: 'Import Results' });
  const importCall = sent.find((c) => c.path === '/api/admin/bulk-import-users');
  expect(importCall?.body).toMatchObject({ confirmedStaffRows: [{ email: 'ada.admin@example.com', role: 'administrator' }] });
});

it('asks again for a promotion that Update existing users brings in after the tick', async () => {
  previewAnswer = {
    newUsers: [{ email: 'eve.emp@example.com', firstName: 'Eve', lastName: 'Emp', entity: '', role: 'everest_employee', propertyAccess: [], identifiers: [] }],
    existingUsers: [{ email: 'investor@example.com', hasChanges: true, changes: { role: { from: 'user', to: 'administrator' } }, newPropertyAccess: [], newIdentifiers: [], removedIdentifiers: [] }],
    errors: [],
    staffRows: [
      { row: 2, email: 'eve.emp@example.com', firstName: 'Eve', lastName: 'Emp', entity: '', role: 'everest_employee', previousRole: null, change: 'new' },
      { row: 3, email: 'investor@example.com', firstName: 'James', lastName: 'Carter', entity: '', role: 'administrator', previousRole: 'user', change: 'promoted' },
    ],
  };
  renderTab();
  choose(csv('eve.emp@example.com,Eve,Emp,,everest_employee,,,,,', 'investor@example.com,James,Carter,,administrator,,,,,'));
  fireEvent.click(previewButton());
  const staff = await screen.findByRole('region', { name: 'Staff accounts in this import' });
  // Skip (the default) leaves the investor as they are: only the new employee is listed.
  expect(within(staff).queryByText('investor@example.com')).toBeNull();
  fireEvent.click(screen.getByRole('checkbox', { name: /^I confirm this staff account: eve\.emp@example\.com/ }));
  expect(confirmButton()).toHaveProperty('disabled', false);

  fireEvent.change(screen.getByRole('combobox', { name: 'Duplicate handling' }), { target: { value: 'update' } });
  within(staff).getByText('Investor → Administrator, promoted');
  const tick = screen.getByRole('checkbox', { name: 'I confirm these 2 staff accounts and their roles' });
  expect(tick).toHaveProperty('checked', false);
  expect(confirmButton()).toHaveProperty('disabled', true);
});

it("sends the identifiers column, and previews a new user's identifiers, an existing user's new and removed ones, and the server's refusal", async () => {
  const taken = '“XXX-XX-9876” already identifies investor2@example.com: an identifier two investors share tells neither apart, so add one that only this investor\'s K-1 shows';
  previewAnswer = {
    newUsers: [{ email: 'nina.park@example.com', firstName: 'Nina', lastName: 'Park', entity: '', role: 'user', propertyAccess: [], identifiers: ['Park Trust', 'XXX-XX-1111'] }],
    existingUsers: [
      {
        email: 'investor@example.com',
        hasChanges: true,
        changes: {},
        newPropertyAccess: [],
        newIdentifiers: ['Carter Family Trust, dtd 3/1/2001'],
        removedIdentifiers: ['XXX-XX-2222'],
      },
    ],
    errors: [{ row: 4, error: taken, value: 'XXX-XX-9876' }],
    staffRows: [],
  };
  renderTab();
  const file = new File(
    [
      [
        'email,firstName,lastName,identifiers',
        'nina.park@example.com,Nina,Park,Park Trust;XXX-XX-1111',
        'investor@example.com,James,Carter,"Carter Family Trust, dtd 3/1/2001"',
        'lee.ray@example.com,Lee,Ray,XXX-XX-9876',
      ].join('\n'),
    ],
    'investors.csv',
  );
  choose(file);
  fireEvent.click(previewButton());

  within(await screen.findByRole('region', { name: 'New Users' })).getByText('Nina Park · Investor · 0 properties · 2 identifiers');
  const existing = screen.getByRole('region', { name: 'Existing Users to Skip' });
  within(existing).getByText('New identifiers: Carter Family Trust, dtd 3/1/2001');
  within(existing).getByText('Identifiers removed: XXX-XX-2222');
  const errors = screen.getByRole('region', { name: 'Errors (will be skipped)' });
  within(errors).getByText(taken);
  screen.getByText(/1 row error \(1 found by the server\)/);

  const body = sent.find((c) => c.path === '/api/admin/preview-bulk-import')?.body as { csvData: { identifiers?: string }[] };
  expect(body.csvData.map((row) => row.identifiers)).toEqual(['Park Trust;XXX-XX-1111', 'Carter Family Trust, dtd 3/1/2001', 'XXX-XX-9876']);

  // A change of identifiers alone is a change to import once existing users are updated.
  previewAnswer = { ...previewAnswer, newUsers: [] };
  fireEvent.click(screen.getByRole('button', { name: 'Cancel Import' }));
  choose(file);
  fireEvent.click(previewButton());
  await screen.findByRole('region', { name: 'Existing Users to Skip' });
  expect(confirmButton()).toHaveProperty('disabled', true);
  fireEvent.change(screen.getByRole('combobox', { name: 'Duplicate handling' }), { target: { value: 'update' } });
  expect(confirmButton()).toHaveProperty('disabled', false);
});
