import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminUsersAnswer,
  bulkImportUsersAnswer,
  createUserAnswer,
  editUserAnswer,
  resendInvitationAnswer,
  type AdminUser,
  type UserStatus,
} from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { hashResetToken, welcomeLinkLifetimeMs } from '../auth/password-links';
import { PasswordResetToken } from '../auth/password-reset-token.entity';
import { recordingClient } from '../../../test/test-client';
import { queuedMails } from '../../../test/queued-mails';
import { adminUserMessages } from './admin-users.service';
import { User } from './user.entity';

const linkPattern = /\/investor-services\?resetToken=([A-Za-z0-9_-]+)/;
const typedPassword = 'Typed@Pass1';

// Issue 35: the user list's Status and Last sign-in, its role and status filters, the resent
// invitation, names kept as typed, and the personal documents a deletion takes.
describe('the user list’s status, filters and invitations', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let admin = '';
  const em = () => server.services.orm.em.fork();
  const post = (path: string, body: object, token = admin) => client.call(`/api/admin/${path}`, { token, body });
  let counter = 0;
  const freshEmail = (name: string) => `${name}.${(counter += 1)}@status.example.com`;

  async function create(body: object) {
    const res = await post('create-user', body);
    expect(res.status, res.text).toBe(200);
    return createUserAnswer.parse(res.json).user;
  }
  async function list(query: string) {
    const res = await client.call(`/api/admin/users${query}`, { token: admin });
    expect(res.status, res.text).toBe(200);
    return adminUsersAnswer.parse(res.json);
  }
  async function row(email: string): Promise<AdminUser> {
    const found = (await list(`?page=1&limit=10&search=${encodeURIComponent(email)}`)).users.find((u) => u.email === email);
    if (!found) throw new Error(`${email} is not in the list`);
    return found;
  }
  const statusOf = async (email: string): Promise<UserStatus> => (await row(email)).status;
  const login = (email: string, password: string) => client.call('/api/investor/login', { body: { email, password } });
  const linkIn = async (email: string) => {
    const mail = (await queuedMails(em(), { recipient: email })).filter((m) => linkPattern.test(m.text)).at(-1);
    const token = mail && linkPattern.exec(mail.text)?.[1];
    if (!token) throw new Error(`no e-mail with a link for ${email}`);
    return token;
  };
  const setPassword = (token: string, password: string) =>
    client.call('/api/investor/reset-password', { body: { token, password, confirmPassword: password } });

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    admin = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  describe('status and last sign-in', () => {
    it('says Invited until the welcome link sets a password, Never signed in until a sign-in, then Active with its time', async () => {
      const email = freshEmail('invited');
      await create({ name: 'Ivy Invited', email, sendWelcomeEmail: true });
      expect(await row(email)).toMatchObject({ status: 'invited', lastLoginAt: null });

      expect((await setPassword(await linkIn(email), 'Chosen@Pass9')).status).toBe(200);
      // The portal's reset drops the cached list through the database's notification.
      await expect.poll(() => statusOf(email)).toBe('never-signed-in');
      expect((await row(email)).lastLoginAt).toBeNull();

      expect((await login(email, 'Chosen@Pass9')).status).toBe(200);
      const signedIn = await row(email);
      expect(signedIn.status).toBe('active');
      expect(Date.now() - Date.parse(signedIn.lastLoginAt ?? '')).toBeLessThan(60_000);
    });

    it('says Never signed in for a password given by an administrator, Deactivated for a deactivated account', async () => {
      const email = freshEmail('given');
      const user = await create({ name: 'Gina Given', email, password: typedPassword });
      expect(await statusOf(email)).toBe('never-signed-in');
      const edited = await post('edit-user', { userId: user.id, isActive: false });
      // The edit's answer carries the new status, so that the panel's row shows it at once.
      expect(editUserAnswer.parse(edited.json).user).toMatchObject({ status: 'deactivated', personalDocuments: 0 });
      expect(await statusOf(email)).toBe('deactivated');
    });

    it('never calls an imported user without a password Active: Invited with a welcome e-mail, else Never signed in', async () => {
      const welcomed = freshEmail('imported');
      const quiet = freshEmail('imported');
      const rows = (email: string, line: number) => [{ line, email, firstName: 'Olivia Rose', lastName: 'Brennan', role: 'user' }];
      for (const [email, sendWelcomeEmails] of [
        [welcomed, true],
        [quiet, false],
      ] as const) {
        const res = await post('bulk-import-users', { csvData: rows(email, 2), sendWelcomeEmails });
        expect(res.status, res.text).toBe(200);
        expect(bulkImportUsersAnswer.parse(res.json).results.imported).toBe(1);
      }
      expect(await statusOf(welcomed)).toBe('invited');
      expect(await statusOf(quiet)).toBe('never-signed-in');
      // The import keeps separate names as given.
      expect(await row(welcomed)).toMatchObject({ firstName: 'Olivia Rose', lastName: 'Brennan' });
    });
  });

  describe('filters', () => {
    it('narrows the list by role and by status, together with the search, counting only the matches', async () => {
      const tag = `filter${(counter += 1)}`;
      await create({ name: `Fay ${tag}`, email: `a.${tag}@status.example.com`, sendWelcomeEmail: true });
      await create({ name: `Finn ${tag}`, email: `b.${tag}@status.example.com`, role: 'everest_employee', password: typedPassword });
      await create({ name: `Flo ${tag}`, email: `c.${tag}@status.example.com`, role: 'everest_employee', sendWelcomeEmail: true });

      const emails = async (query: string) => {
        const answer = await list(`?page=1&limit=10&search=${tag}${query}`);
        expect(answer.totalCount).toBe(answer.users.length);
        return answer.users.map((u) => u.email.split('.')[0]).sort();
      };
      expect(await emails('')).toEqual(['a', 'b', 'c']);
      expect(await emails('&role=everest_employee')).toEqual(['b', 'c']);
      expect(await emails('&status=invited')).toEqual(['a', 'c']);
      expect(await emails('&role=everest_employee&status=invited')).toEqual(['c']);
      expect(await emails('&role=administrator')).toEqual([]);

      // Without a search (a short one too), on the spec's whole-list call as well.
      const invited = await list('?page=1&limit=100&status=invited');
      expect(invited.users.length).toBeGreaterThan(0);
      expect(invited.users.every((u) => u.status === 'invited')).toBe(true);
      const employees = await list('?role=everest_employee');
      expect(employees.users.every((u) => u.role === 'everest_employee')).toBe(true);
      expect(employees.totalCount).toBe(employees.users.length);
    });

    it('refuses an unknown role or status with 400 and a sentence', async () => {
      for (const query of ['?status=pending', '?role=owner', '?status=', `?status=${'x'.repeat(5000)}`, '?status=Invited']) {
        const res = await client.call(`/api/admin/users${query}`, { token: admin });
        expect(res.status, query).toBe(400);
        expect(res.json).toEqual({ error: expect.stringMatching(/^Please choose a (role|status)/) });
      }
      const nul = await client.call('/api/admin/users?status=invited%00', { token: admin });
      expect(nul.status).toBe(400);
    });
  });

  describe('resend invitation', () => {
    it('sends the welcome e-mail again with a fresh 7-day link, voids the old one, and is audited', async () => {
      const email = freshEmail('resend');
      const user = await create({ name: 'Rita Resend', email, sendWelcomeEmail: true });
      const first = await linkIn(email);

      const res = await post('resend-invitation', { userId: user.id });
      expect(res.status, res.text).toBe(200);
      expect(resendInvitationAnswer.parse(res.json).message).toBe(`A new invitation was sent to ${email}. Its link works for 7 days.`);
      const mails = await queuedMails(em(), { recipient: email });
      expect(mails).toHaveLength(2);
      const mail = mails.at(-1);
      expect(mail?.subject).toBe('Welcome to the Everest Properties investor portal');
      expect(mail?.text).toMatch(/choose your password/i);
      expect(mail?.text).toMatch(/7 days/);
      expect(mail?.text).not.toMatch(/received a request to reset/i);

      const fresh = await linkIn(email);
      expect(fresh).not.toBe(first);
      const link = await em().findOneOrFail(PasswordResetToken, { tokenHash: hashResetToken(fresh) });
      const lifetime = link.expiresAt.getTime() - link.createdAt.getTime();
      expect(lifetime).toBeGreaterThan(welcomeLinkLifetimeMs - 60_000);
      expect(lifetime).toBeLessThanOrEqual(welcomeLinkLifetimeMs + 1000);
      // Only the newest e-mail opens the account.
      expect((await setPassword(first, 'Chosen@Pass9')).status).toBe(400);
      expect(await statusOf(email)).toBe('invited');

      const audit = await em().findOneOrFail(AuditEvent, { action: 'resend-invitation' }, { orderBy: { id: 'desc' } });
      expect(audit.details?.subject).toEqual({ type: 'user', id: user.id, label: email });

      expect((await setPassword(fresh, 'Chosen@Pass9')).status).toBe(200);
      await expect.poll(() => statusOf(email)).toBe('never-signed-in');
    });

    it('refuses with 409 and a sentence anyone who is not Invited, and sends nothing', async () => {
      const given = await create({ name: 'Gus Given', email: freshEmail('given'), password: typedPassword });
      const active = await create({ name: 'Ada Active', email: freshEmail('active'), password: typedPassword });
      expect((await login(active.email, typedPassword)).status).toBe(200);
      const off = await create({ name: 'Dee Deactivated', email: freshEmail('off'), sendWelcomeEmail: true });
      expect((await post('edit-user', { userId: off.id, isActive: false })).status).toBe(200);

      for (const [user, status] of [
        [given, 'never-signed-in'],
        [active, 'active'],
        [off, 'deactivated'],
      ] as const) {
        const before = (await queuedMails(em(), { recipient: user.email })).length;
        const res = await post('resend-invitation', { userId: user.id });
        expect(res.status, status).toBe(409);
        expect(res.json).toEqual({ error: adminUserMessages.notInvited[status] });
        expect(await queuedMails(em(), { recipient: user.email })).toHaveLength(before);
      }
      expect((await post('resend-invitation', { userId: 999_999 })).status).toBe(404);
      for (const body of [{}, { userId: 'x' }, { userId: -1 }, { userId: 1.5 }]) {
        expect((await post('resend-invitation', body)).status).toBe(400);
      }
    });

    it('is for administrators only', async () => {
      const invited = await create({ name: 'Ona Only', email: freshEmail('only'), sendWelcomeEmail: true });
      expect((await client.call('/api/admin/resend-invitation', { body: { userId: invited.id } })).status).toBe(401);
      for (const who of ['investor@example.com', 'employee@example.com']) {
        const token = await client.signIn(who);
        expect((await post('resend-invitation', { userId: invited.id }, token)).status, who).toBe(403);
      }
      expect(await queuedMails(em(), { recipient: invited.email })).toHaveLength(1);
    });
  });

  describe('names', () => {
    it('keeps first and last name as typed in the user editor; only create-user’s full name is split', async () => {
      const user = await create({ name: 'Olivia Rose Brennan', email: freshEmail('names') });
      expect(user).toMatchObject({ firstName: 'Olivia', lastName: 'Rose Brennan' });
      const res = await post('edit-user', { userId: user.id, firstName: 'Olivia Rose', lastName: 'Brennan' });
      expect(res.status, res.text).toBe(200);
      expect(editUserAnswer.parse(res.json).user).toMatchObject({ firstName: 'Olivia Rose', lastName: 'Brennan' });
      expect(await em().findOneOrFail(User, { id: user.id })).toMatchObject({ firstName: 'Olivia Rose', lastName: 'Brennan' });
      // One field alone leaves the other as it is.
      const one = await post('edit-user', { userId: user.id, lastName: 'Brennan-Hale' });
      expect(editUserAnswer.parse(one.json).user).toMatchObject({ firstName: 'Olivia Rose', lastName: 'Brennan-Hale' });
    });
  });

  describe('personal documents', () => {
    it('counts each user’s personal documents in the list, as the delete dialog names them', async () => {
      const user = await create({ name: 'Dora Documents', email: freshEmail('docs'), password: typedPassword });
      expect((await row(user.email)).personalDocuments).toBe(0);
      const connection = em().getConnection();
      const [file] = await connection.execute<{ id: number }[]>('select id from stored_files limit 1');
      for (const title of ['K-1 2025', '1099 2025']) {
        await connection.execute(
          `insert into user_documents (user_id, title, document_category, year, quarter, filename, file_id, uploaded_at)
           values (?, ?, 'tax', 2025, 'Q1', 'k1.pdf', ?, now())`,
          [user.id, title, file?.id],
        );
      }
      await expect.poll(async () => (await row(user.email)).personalDocuments).toBe(2);
      const deleted = await post('delete-user', { userId: user.id });
      expect(deleted.json).toMatchObject({ removedDocuments: 2 });
    });
  });
});
