import { useEffect } from 'react';
import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from '../../lib/router';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { AdminUser, User } from '@everest/core/contract';
import { portalMessages, portalSuccess, userCreatedToastMs } from '@everest/core/domain';
import { createQueryClient } from '../../lib/query-client';
import { everestTheme } from '../../testing/themes';
import { showToast } from '../../lib/toast';
import { AdminPanel } from '.';

// The machines running these share two CPUs with other work: the panel's first render with
// Fluent takes longer than Testing Library's default second there.
configure({ asyncUtilTimeout: 10_000 });

vi.mock('../../lib/toast', () => ({ showToast: vi.fn() }));

// happy-dom's Web Animations reject when Fluent's dialog motion is cancelled at unmount; without
// `animate` Fluent takes its test path and skips the motion.
const animate = Element.prototype.animate;
beforeAll(() => {
  Reflect.deleteProperty(Element.prototype, 'animate');
});
afterAll(() => {
  Element.prototype.animate = animate;
});

const base: AdminUser = {
  id: 0,
  firstName: '',
  lastName: '',
  email: '',
  entity: '',
  streetAddress: '',
  city: '',
  state: '',
  zipCode: '',
  role: 'user',
  isActive: true,
  lastLoginAt: null,
  previousLoginAt: null,
  status: 'active',
  personalDocuments: 0,
  identifiers: [],
};
const admin: AdminUser = { ...base, id: 1, firstName: 'Ada', lastName: 'Admin', email: 'admin@example.com', role: 'administrator' };
const investors: AdminUser[] = Array.from({ length: 23 }, (_, i) => ({
  ...base,
  id: 100 + i,
  firstName: `Investor${i + 1}`,
  lastName: 'Smith',
  email: `investor${i + 1}@example.com`,
  personalDocuments: i === 0 ? 3 : 0,
  identifiers: i === 1 ? ['Smith Family Trust dtd 3/1/2001', 'XXX-XX-1234', 'Smith Holdings LP', 'S. Smith IRA', '4321'] : [],
}));
const everyone = [admin, ...investors];

interface Call {
  path: string;
  query: URLSearchParams;
  body: unknown;
}
let calls: Call[] = [];
/** What edit-user answers, per test: the saved user by default. */
let editUserAnswer: (body: { userId: number }) => Response;

function json(value: unknown, status = 200) {
  return new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  calls = [];
  editUserAnswer = (body) => json({ message: 'User updated.', user: { ...everyone.find((u) => u.id === body.userId), ...body } });
  vi.mocked(showToast).mockClear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ path: url.pathname, query: url.searchParams, body });
      switch (url.pathname) {
        case '/api/admin/users': {
          const search = (url.searchParams.get('search') ?? '').toLowerCase();
          const page = Number(url.searchParams.get('page') ?? 1);
          const limit = Number(url.searchParams.get('limit') ?? 10);
          const found = everyone.filter((u) => `${u.firstName} ${u.lastName} ${u.email}`.toLowerCase().includes(search));
          return json({ users: found.slice((page - 1) * limit, page * limit), totalCount: found.length, builtInAdministratorEmail: admin.email });
        }
        case '/api/admin/user-properties':
          return json({ userProperties: [{ userId: 100, property: 'Oak Terrace' }, { userId: 100, property: 'Elm Court' }] });
        case '/api/admin/investor-properties':
          return json({ properties: [] });
        case '/api/admin/edit-user':
          return editUserAnswer(body);
        case '/api/admin/create-user':
          return json({ message: 'Created', user: { ...base, id: 500, email: body.email, firstName: 'New' }, password: 'Gen3rated!pw' });
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

const address = { search: '' };
function LocationProbe() {
  const { search } = useLocation();
  useEffect(() => {
    address.search = search;
  }, [search]);
  return null;
}

function renderUsers(path = '/investor-services', currentUser: User = admin) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <FluentProvider theme={everestTheme}>
        <MemoryRouter initialEntries={[path]}>
          <LocationProbe />
          <AdminPanel initialTab="users" currentUser={currentUser} />
        </MemoryRouter>
      </FluentProvider>
    </QueryClientProvider>,
  );
}

const usersTable = () => screen.getByRole('table', { name: 'Users' });

it('asks the server for one page of 10, and paging is kept in the address', async () => {
  renderUsers();
  await within(usersTable()).findByText('admin@example.com');
  expect(calls.find((c) => c.path === '/api/admin/users')?.query.get('limit')).toBe('10');
  screen.getByText('Showing 1–10 of 24 · Page 1 of 3');

  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  await within(usersTable()).findByText('investor10@example.com');
  expect(address.search).toBe('?userPage=2');
});

it('a new search starts again on page 1', async () => {
  renderUsers('/investor-services?userPage=3');
  await within(usersTable()).findByText('investor20@example.com');
  fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'investor1' } });
  await waitFor(() => expect(address.search).toBe('?userSearch=investor1'));
  await within(usersTable()).findByText('investor10@example.com');
  const last = calls.filter((c) => c.path === '/api/admin/users').at(-1);
  expect(last?.query.get('page')).toBe('1');
  expect(last?.query.get('search')).toBe('investor1');
});

it("the signed-in administrator's own row has no Delete, and its e-mail is locked in the editor", async () => {
  renderUsers();
  await within(usersTable()).findByText('admin@example.com');
  expect(screen.queryByRole('button', { name: 'Delete Ada Admin' })).toBeNull();
  screen.getByRole('button', { name: 'Delete Investor1 Smith' });

  fireEvent.click(screen.getByRole('button', { name: 'Edit Ada Admin' }));
  const editor = await screen.findByRole('form', { name: 'Edit Ada Admin' });
  expect(within(editor).getByRole('textbox', { name: /Email/ }).hasAttribute('readonly')).toBe(true);
  await waitFor(() => expect(document.activeElement).toBe(within(editor).getByRole('textbox', { name: 'First name' })));

  fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
  await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit Ada Admin' })));
});

it("the built-in administrator's row has no Delete and a locked e-mail for another administrator too", async () => {
  // Signed in as an investor row made administrator: its own row is locked, and so is ADMIN_EMAIL's.
  const other = { ...investors[0], role: 'administrator' } as User;
  renderUsers('/investor-services', other);
  await within(usersTable()).findByText('admin@example.com');
  expect(screen.queryByRole('button', { name: 'Delete Ada Admin' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Delete Investor1 Smith' })).toBeNull();
  screen.getByRole('button', { name: 'Delete Investor2 Smith' });

  fireEvent.click(screen.getByRole('button', { name: 'Edit Ada Admin' }));
  const editor = await screen.findByRole('form', { name: 'Edit Ada Admin' });
  expect(within(editor).getByRole('textbox', { name: /Email/ }).hasAttribute('readonly')).toBe(true);
});

it('property access shows as chips, each with its own remove button', async () => {
  renderUsers();
  await within(usersTable()).findByText('Oak Terrace');
  screen.getByRole('button', { name: 'Remove Oak Terrace from Investor1 Smith' });
  screen.getByRole('button', { name: 'Remove Elm Court from Investor1 Smith' });
});

it('the delete confirmation names the user and says their personal documents and access go too', async () => {
  renderUsers();
  fireEvent.click(await screen.findByRole('button', { name: 'Delete Investor1 Smith' }));
  // `hidden: true`: Tabster's modalizer outlives a test's cleanup in happy-dom and may mark a
  // later dialog aria-hidden; Chromium's accessibility tree is checked by the e2e tests.
  const dialog = await screen.findByRole('alertdialog', { name: 'Delete Investor1 Smith?', hidden: true });
  expect(dialog.textContent).toContain('investor1@example.com');
  expect(dialog.textContent).toContain('3 personal documents');
  expect(dialog.textContent).toContain('access to 2 properties (Elm Court, Oak Terrace)');
  fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel', hidden: true }));
  await waitFor(() => expect(screen.queryByRole('alertdialog', { hidden: true })).toBeNull());
  expect(calls.some((c) => c.path === '/api/admin/delete-user')).toBe(false);
});

it("creating a user shows 'User Created' with the generated password for 10 seconds and a copy button", async () => {
  renderUsers();
  const form = screen.getByRole('form', { name: 'Create User' });
  fireEvent.click(within(form).getByRole('button', { name: 'Create User' }));
  // Neither a name nor an entity: the contract's message, nothing sent.
  await within(form).findByText('Please enter a full name or an entity.');
  expect(calls.some((c) => c.path === '/api/admin/create-user')).toBe(false);

  fireEvent.change(within(form).getByRole('textbox', { name: /Full name/ }), { target: { value: 'New Person' } });
  fireEvent.change(within(form).getByRole('textbox', { name: /Email/ }), { target: { value: 'new@example.com' } });
  await act(async () => {
    fireEvent.click(within(form).getByRole('button', { name: 'Create User' }));
  });
  await waitFor(() => expect(showToast).toHaveBeenCalled());
  const sent = calls.find((c) => c.path === '/api/admin/create-user')?.body;
  expect(sent).toMatchObject({ name: 'New Person', email: 'new@example.com', role: 'user', password: '', properties: [] });
  const toast = vi.mocked(showToast).mock.calls.at(-1)?.[0];
  expect(toast?.title).toBe(portalSuccess.userCreated);
  expect(toast?.description).toContain('Gen3rated!pw');
  expect(toast?.durationMs).toBe(userCreatedToastMs);
  expect(toast?.action?.label).toBe('Copy password');
  expect(portalMessages.userCreateFailed).toMatch(/^Creation Failed/);
});

it('without a router or a query client (the desktop app), the panel pages in its own state', async () => {
  render(
    <FluentProvider theme={everestTheme}>
      <AdminPanel initialTab="users" />
    </FluentProvider>,
  );
  await within(usersTable()).findByText('admin@example.com');
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  await within(usersTable()).findByText('investor10@example.com');
  screen.getByText('Showing 11–20 of 24 · Page 2 of 3');
  // Without a signed-in administrator no row is held back.
  screen.getByRole('button', { name: 'Delete Investor10 Smith' });
});

const identifierTaken =
  '“XXX-XX-9876” already identifies investor7@example.com: an identifier two investors share tells neither apart, so add one that only this investor\'s K-1 shows';

it("a user's row shows their first three added identifiers, then how many more", async () => {
  renderUsers();
  const row = (await within(usersTable()).findByText('investor2@example.com')).closest('tr')!;
  expect(within(row).getByText(/^Identifiers:/).textContent).toBe(
    'Identifiers: Smith Family Trust dtd 3/1/2001 · XXX-XX-1234 · Smith Holdings LP and 2 more',
  );
  // Nothing is said for a row without any.
  const other = within(usersTable()).getByText('investor3@example.com').closest('tr')!;
  expect(within(other).queryByText(/^Identifiers:/)).toBeNull();
});

it('edit-user sends the identifiers only when they changed, one per line', async () => {
  renderUsers();
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Investor2 Smith' }));
  const editor = await screen.findByRole('form', { name: 'Edit Investor2 Smith' });
  const box = within(editor).getByRole('textbox', { name: /Identifiers/ });
  expect((box as HTMLTextAreaElement).value).toBe('Smith Family Trust dtd 3/1/2001\nXXX-XX-1234\nSmith Holdings LP\nS. Smith IRA\n4321');
  within(editor).getByText(/Smith Family Trust dtd 3\/1\/2001”, or the last four digits of the partner’s TIN/);

  fireEvent.change(within(editor).getByRole('textbox', { name: 'City' }), { target: { value: 'Pasadena' } });
  fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(calls.some((c) => c.path === '/api/admin/edit-user')).toBe(true));
  const first = calls.find((c) => c.path === '/api/admin/edit-user')?.body as Record<string, unknown>;
  expect(first.city).toBe('Pasadena');
  expect('identifiers' in first).toBe(false);

  fireEvent.click(await screen.findByRole('button', { name: 'Edit Investor2 Smith' }));
  const again = await screen.findByRole('form', { name: 'Edit Investor2 Smith' });
  fireEvent.change(within(again).getByRole('textbox', { name: /Identifiers/ }), {
    target: { value: '  Smith Family Trust dtd 3/1/2001 \n\nXXX-XX-5555\n' },
  });
  fireEvent.click(within(again).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(calls.filter((c) => c.path === '/api/admin/edit-user')).toHaveLength(2));
  expect(calls.filter((c) => c.path === '/api/admin/edit-user')[1]?.body).toMatchObject({
    userId: 101,
    identifiers: ['Smith Family Trust dtd 3/1/2001', 'XXX-XX-5555'],
  });
});

it("the server's refusal of an identifier is said at the field, which takes the focus, and in the toast", async () => {
  editUserAnswer = () => json({ error: identifierTaken }, 409);
  renderUsers();
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Investor3 Smith' }));
  const editor = await screen.findByRole('form', { name: 'Edit Investor3 Smith' });
  const box = within(editor).getByRole('textbox', { name: /Identifiers/ });
  fireEvent.change(box, { target: { value: 'XXX-XX-9876' } });
  fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));

  await within(editor).findByText(identifierTaken);
  await waitFor(() => expect(document.activeElement).toBe(box));
  expect(box.getAttribute('aria-invalid')).toBe('true');
  expect(vi.mocked(showToast).mock.calls.at(-1)?.[0]).toMatchObject({ description: identifierTaken, variant: 'destructive' });
  // The editor stays open with what was typed.
  expect((box as HTMLTextAreaElement).value).toBe('XXX-XX-9876');
});

it('another 409 (an e-mail already used) is not put at the identifiers', async () => {
  editUserAnswer = () => json({ error: 'That email address is already used by another account. Please choose another one.' }, 409);
  renderUsers();
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Investor3 Smith' }));
  const editor = await screen.findByRole('form', { name: 'Edit Investor3 Smith' });
  fireEvent.change(within(editor).getByRole('textbox', { name: /Identifiers/ }), { target: { value: 'Jones Trust' } });
  fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(showToast).toHaveBeenCalled());
  expect(within(editor).getByRole('textbox', { name: /Identifiers/ }).getAttribute('aria-invalid')).not.toBe('true');
});

it('a line the contract refuses is named at the field before anything is sent', async () => {
  renderUsers();
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Investor3 Smith' }));
  const editor = await screen.findByRole('form', { name: 'Edit Investor3 Smith' });
  fireEvent.change(within(editor).getByRole('textbox', { name: /Identifiers/ }), { target: { value: 'Jones Trust\n--' } });
  fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));
  await within(editor).findByText(/^Line 2 \(“--”\): An identifier/);
  expect(calls.some((c) => c.path === '/api/admin/edit-user')).toBe(false);
});

it("a new name that is another account's identifier is refused at the first name", async () => {
  const sentence =
    '“Wren Abbott” already identifies investor9@example.com: an identifier two investors share tells neither apart, so add one that only this investor\'s K-1 shows';
  editUserAnswer = () => json({ error: sentence }, 409);
  renderUsers();
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Investor3 Smith' }));
  const editor = await screen.findByRole('form', { name: 'Edit Investor3 Smith' });
  fireEvent.change(within(editor).getByRole('textbox', { name: 'First name' }), { target: { value: 'Wren' } });
  fireEvent.change(within(editor).getByRole('textbox', { name: 'Last name' }), { target: { value: 'Abbott' } });
  fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));
  await within(editor).findByText(sentence);
  await waitFor(() => expect(document.activeElement).toBe(within(editor).getByRole('textbox', { name: 'First name' })));
  expect(within(editor).getByRole('textbox', { name: /Identifiers/ }).getAttribute('aria-invalid')).not.toBe('true');
});
