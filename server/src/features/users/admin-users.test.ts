import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminResetPasswordAnswer,
  adminUserPropertiesAnswer,
  createUserAnswer,
  deleteUserAnswer,
  editUserAnswer,
  messageAnswer,
  validateResetTokenAnswer,
  type CreateUserAnswer,
} from '@everest/core/contract';
import { checkPassword } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { hashResetToken, welcomeLinkLifetimeMs } from '../auth/password-links';
import { PasswordResetToken } from '../auth/password-reset-token.entity';
import { recordingClient } from '../../../test/test-client';
import { PersonalDocument } from '../personal-documents/personal-document.entity';
import { queuedMails } from '../../../test/queued-mails';
import { generatedPasswordLength } from './admin-users.service';
import { PropertyAccess } from './property-access.entity';
import { User } from './user.entity';

const publicUrl = 'https://portal.everest.example';
const linkPattern = /\/investor-services\?resetToken=([A-Za-z0-9_-]+)/;
const typedPassword = 'Typed@Pass1';

describe('users administration', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let admin = '';
  const em = () => server.services.orm.em.fork();
  const post = (path: string, body: object, token = admin) => client.call(`/api/admin/${path}`, { token, body });
  let counter = 0;
  /** An address of its own for each account a test opens. */
  const freshEmail = (name = 'new.investor') => `${name}.${(counter += 1)}@example.com`;

  async function create(body: object): Promise<CreateUserAnswer> {
    const res = await post('create-user', body);
    expect(res.status, res.text).toBe(200);
    return createUserAnswer.parse(res.json);
  }
  const profileStatus = async (token: string) => (await client.call('/api/investor/profile', { token })).status;
  const mailsTo = (recipient: string) => queuedMails(em(), { recipient });
  async function linkTokenIn(recipient: string): Promise<string> {
    const mail = (await mailsTo(recipient)).filter((m) => linkPattern.test(m.text)).at(-1);
    const token = mail && linkPattern.exec(mail.text)?.[1];
    if (!token) throw new Error(`no e-mail with a link for ${recipient}`);
    return token;
  }
  const resetWith = (token: string, password: string) =>
    client.call('/api/investor/reset-password', { body: { token, password, confirmPassword: password } });

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { PUBLIC_URL: publicUrl } });
    client = recordingClient(server);
    admin = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  describe('create-user', () => {
    it('generates a strong password, answers it once with no-store, and it signs in', async () => {
      const email = freshEmail();
      const res = await post('create-user', { name: 'Mary Ann Smith', email });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const answer = createUserAnswer.parse(res.json);
      expect(answer.user).toMatchObject({ firstName: 'Mary', lastName: 'Ann Smith', email, role: 'user', isActive: true, entity: '' });
      const password = answer.password ?? '';
      expect(password).toHaveLength(generatedPasswordLength);
      expect(checkPassword(password)).toBeNull();
      const login = await client.call('/api/investor/login', { body: { email, password } });
      expect(login.status, login.text).toBe(200);
      // Never stored as given.
      const stored = await em().findOneOrFail(User, { email });
      expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
      expect(stored.passwordHash).not.toContain(password);
    });

    it('answers no password when the administrator typed one, which then signs in', async () => {
      const email = freshEmail();
      const answer = await create({ entity: 'Blue Heron Partners LP', email, password: typedPassword, role: 'everest_employee' });
      expect(answer.password).toBeNull();
      expect(answer.user).toMatchObject({ firstName: '', lastName: '', entity: 'Blue Heron Partners LP', role: 'everest_employee' });
      expect((await client.call('/api/investor/login', { body: { email, password: typedPassword } })).status).toBe(200);
    });

    it('refuses a typed password that breaks the rule, and a body with neither name nor entity', async () => {
      const weak = await post('create-user', { name: 'Weak Password', email: freshEmail(), password: 'password' });
      expect(weak.status).toBe(400);
      expect(weak.json).toEqual({ error: expect.stringMatching(/^Password must contain/) });
      const nameless = await post('create-user', { email: freshEmail() });
      expect(nameless.status).toBe(400);
      expect(nameless.json).toEqual({ error: 'Please enter a full name or an entity.' });
    });

    it('refuses an e-mail address already taken, in any letter case, with 409 and a sentence', async () => {
      const res = await post('create-user', { name: 'Copy Cat', email: 'Investor@EXAMPLE.com' });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({ error: 'That email address is already used by another account. Please choose another one.' });
    });

    it('lets exactly one of two simultaneous creations of the same address through', async () => {
      const email = freshEmail('race');
      const answers = await Promise.all([
        post('create-user', { name: 'Racer One', email }),
        post('create-user', { name: 'Racer Two', email: email.toUpperCase() }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)?.json).toEqual({ error: expect.stringMatching(/already used/) });
      expect(await em().count(User, { email })).toBe(1);
    });

    it('assigns properties in the same transaction, and refuses unknown or non-investor-relations ones with nothing created', async () => {
      const email = freshEmail();
      const answer = await create({ name: 'Paula Props', email, properties: ['Aspen Ridge', 'Lakeside Commons', 'Aspen Ridge'] });
      const links = adminUserPropertiesAnswer.parse((await client.call('/api/admin/user-properties', { token: admin })).json);
      expect(links.userProperties.filter((l) => l.userId === answer.user.id).map((l) => l.property)).toEqual(['Aspen Ridge', 'Lakeside Commons']);

      const refused = freshEmail();
      const res = await post('create-user', { name: 'Nope', email: refused, properties: ['Aspen Ridge', 'Everest Properties Headquarters', 'Atlantis'] });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: "There are no properties open to investor access named 'Everest Properties Headquarters', 'Atlantis'. Please choose them from the list.",
      });
      expect(await em().count(User, { email: refused })).toBe(0);
    });
  });

  describe('welcome e-mail', () => {
    it('queues a link that is not the password, sets a password once, and is dead afterwards', async () => {
      const email = freshEmail('welcome');
      const answer = await create({ name: 'Wendy Welcome', email, sendWelcomeEmail: true });
      const [mail, ...others] = await mailsTo(email);
      expect(others).toHaveLength(0);
      expect(mail?.subject).toMatch(/welcome/i);
      expect(mail?.text).toContain(`${publicUrl}/investor-services?resetToken=`);
      expect(mail?.text).toMatch(/7 days/);
      for (const part of [mail?.text, mail?.html]) expect(part).not.toContain(answer.password ?? 'never');

      const token = await linkTokenIn(email);
      const valid = await client.call(`/api/investor/validate-reset-token/${token}`);
      expect(validateResetTokenAnswer.parse(valid.json)).toMatchObject({ valid: true, userName: 'Wendy Welcome' });
      expect((await resetWith(token, 'Chosen@Pass9')).status).toBe(200);
      expect((await client.call('/api/investor/login', { body: { email, password: 'Chosen@Pass9' } })).status).toBe(200);
      const again = await resetWith(token, 'Other@Pass9');
      expect(again.status).toBe(400);
      expect((await client.call('/api/investor/login', { body: { email, password: 'Other@Pass9' } })).status).toBe(401);
    });

    it('is valid for 7 days and no longer', async () => {
      const email = freshEmail('welcome');
      await create({ entity: 'Late Readers LLC', email, sendWelcomeEmail: true });
      const token = await linkTokenIn(email);
      const row = await em().findOneOrFail(PasswordResetToken, { tokenHash: hashResetToken(token) });
      const lifetime = row.expiresAt.getTime() - row.createdAt.getTime();
      expect(lifetime).toBeGreaterThan(welcomeLinkLifetimeMs - 60_000);
      expect(lifetime).toBeLessThanOrEqual(welcomeLinkLifetimeMs + 1000);
      expect(welcomeLinkLifetimeMs).toBe(7 * 24 * 3600_000);

      // Seven days later.
      await em().nativeUpdate(PasswordResetToken, { id: row.id }, { expiresAt: new Date(Date.now() - 1000) });
      const valid = validateResetTokenAnswer.parse((await client.call(`/api/investor/validate-reset-token/${token}`)).json);
      expect(valid.valid).toBe(false);
      expect((await resetWith(token, 'Chosen@Pass9')).status).toBe(400);
    });

    it('is not sent unless asked for', async () => {
      const email = freshEmail('quiet');
      await create({ name: 'Quiet Quincy', email });
      expect(await mailsTo(email)).toHaveLength(0);
    });
  });

  describe('edit-user', () => {
    it('saves only the fields sent, the names as typed, and limits the entity', async () => {
      const { user } = await create({ name: 'Edith Edit', entity: 'Edit Holdings', email: freshEmail() });
      const res = await post('edit-user', { userId: user.id, firstName: 'Edith Anne', city: 'Pasadena' });
      expect(res.status, res.text).toBe(200);
      expect(editUserAnswer.parse(res.json).user).toMatchObject({
        firstName: 'Edith Anne',
        lastName: 'Edit',
        entity: 'Edit Holdings',
        city: 'Pasadena',
        email: user.email,
      });
      const long = await post('edit-user', { userId: user.id, entity: 'x'.repeat(201) });
      expect(long.status).toBe(400);
      expect(long.json).toEqual({ error: 'Entity must be 200 characters or fewer.' });
      const nameless = await post('edit-user', { userId: user.id, firstName: '', lastName: '', entity: '' });
      expect(nameless.status).toBe(400);
      expect(nameless.json).toEqual({ error: 'Please enter a full name or an entity.' });
      expect((await post('edit-user', { userId: 999_999, city: 'Nowhere' })).status).toBe(404);
      // An old account with neither name nor entity can still get a new city.
      const legacy = freshEmail('legacy');
      await em().getConnection().execute("insert into users (email, password_hash, role, created_at, updated_at) values (?, 'x', 'user', now(), now())", [legacy]);
      const legacyId = (await em().findOneOrFail(User, { email: legacy })).id;
      expect((await post('edit-user', { userId: legacyId, city: 'Pasadena' })).status).toBe(200);
    });

    it("ends the user's live session at once when their role changes", async () => {
      const { user, password } = await create({ name: 'Rolf Role', email: freshEmail() });
      const token = await client.signIn(user.email, password ?? '');
      expect(await profileStatus(token)).toBe(200);
      expect((await post('edit-user', { userId: user.id, role: 'everest_employee' })).status).toBe(200);
      expect(await profileStatus(token)).toBe(401);
      // Signing in again gives a session with the new role.
      const fresh = await client.signIn(user.email, password ?? '');
      expect(await profileStatus(fresh)).toBe(200);
    });

    it("refuses a deactivated user's live session on its next call, and their sign-in", async () => {
      const { user, password } = await create({ name: 'Dina Deactivated', email: freshEmail() });
      const token = await client.signIn(user.email, password ?? '');
      expect(await profileStatus(token)).toBe(200);
      expect((await post('edit-user', { userId: user.id, isActive: false })).status).toBe(200);
      expect(await profileStatus(token)).toBe(401);
      expect((await client.call('/api/investor/login', { body: { email: user.email, password } })).status).toBe(401);
      // Reactivated, the old session stays dead: it was issued before the deactivation.
      expect((await post('edit-user', { userId: user.id, isActive: true })).status).toBe(200);
      expect(await profileStatus(token)).toBe(401);
    });

    it('ends the sessions on an e-mail change, tells the old address, and refuses a taken one', async () => {
      const { user, password } = await create({ name: 'Ezra Email', email: freshEmail() });
      const token = await client.signIn(user.email, password ?? '');
      const taken = await post('edit-user', { userId: user.id, email: 'EMPLOYEE@example.com' });
      expect(taken.status).toBe(409);
      expect(await profileStatus(token)).toBe(200);
      const moved = freshEmail('moved');
      expect((await post('edit-user', { userId: user.id, email: moved.toUpperCase() })).status).toBe(200);
      expect(await profileStatus(token)).toBe(401);
      expect((await mailsTo(user.email)).map((m) => m.text).join()).toContain(moved);
      expect((await client.call('/api/investor/login', { body: { email: moved, password } })).status).toBe(200);
    });

    it('keeps sessions through an edit of name or address', async () => {
      const { user, password } = await create({ name: 'Sam Stay', email: freshEmail() });
      const token = await client.signIn(user.email, password ?? '');
      expect((await post('edit-user', { userId: user.id, lastName: 'Stays', zipCode: '91101', role: 'user', isActive: true })).status).toBe(200);
      expect(await profileStatus(token)).toBe(200);
    });

    it('writes a before/after audit row of the changed fields only, with no password hash anywhere in the table', async () => {
      const { user } = await create({ name: 'Audrey Audit', email: freshEmail(), password: typedPassword });
      expect((await post('edit-user', { userId: user.id, city: 'Fresno', role: 'everest_employee', state: '' })).status).toBe(200);
      const rows = await em().find(AuditEvent, { action: 'edit-user' });
      const row = rows.find((r) => (r.details?.subject as { id?: number } | undefined)?.id === user.id);
      expect(row?.details).toEqual({
        actorEmail: 'admin@example.com',
        subject: { type: 'user', id: user.id, label: user.email },
        before: { city: '', role: 'user' },
        after: { city: 'Fresno', role: 'everest_employee' },
      });
      expect(row?.clientAddress).not.toBe('');
      const actor = await em().findOneOrFail(User, { email: 'admin@example.com' });
      expect(row?.user?.id).toBe(actor.id);
      const all = await em().getConnection().execute<{ details: string }[]>('select coalesce(details::text, \'\') as details from audit_events');
      expect(all.length).toBeGreaterThan(0);
      for (const { details } of all) {
        expect(details).not.toContain('$argon2');
        expect(details).not.toMatch(/passwordHash|tokenVersion|Typed@Pass1/);
      }
    });
  });

  describe('the built-in administrator', () => {
    it('survives delete, demote, deactivate and e-mail change, each refused with 409 and a sentence', async () => {
      const builtIn = await em().findOneOrFail(User, { email: 'admin@example.com' });
      const attempts = [
        ['delete-user', { userId: builtIn.id }, 'The built-in administrator cannot be deleted.'],
        ['edit-user', { userId: builtIn.id, role: 'user' }, 'The built-in administrator must stay an administrator.'],
        ['edit-user', { userId: builtIn.id, isActive: false }, 'The built-in administrator cannot be deactivated.'],
        ['edit-user', { userId: builtIn.id, email: 'boss@example.com' }, "The built-in administrator's email address cannot be changed."],
      ] as const;
      for (const [path, body, error] of attempts) {
        const res = await post(path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(409);
        expect(res.json).toEqual({ error });
      }
      const after = await em().findOneOrFail(User, { id: builtIn.id });
      expect(after).toMatchObject({ email: 'admin@example.com', role: 'administrator', isActive: true, tokenVersion: builtIn.tokenVersion });
      expect(await profileStatus(admin)).toBe(200);
      // The rest of its details may change.
      expect((await post('edit-user', { userId: builtIn.id, email: 'ADMIN@example.com', role: 'administrator', isActive: true, city: 'Pasadena' })).status).toBe(200);
    });
  });

  describe('delete-user', () => {
    it('removes the account, its sessions, property access and personal documents, and answers how many', async () => {
      const { user, password } = await create({ name: 'Gone Soon', email: freshEmail('gone'), properties: ['Aspen Ridge'] });
      const token = await client.signIn(user.email, password ?? '');
      await em().getConnection().execute(
        `insert into user_documents (user_id, title, document_category, year, quarter, filename, file_id, uploaded_at)
         select ?, 'K-1 ' || k, 'tax', 2025, 'Q1', 'k1-' || k || '.pdf', (select id from stored_files order by id limit 1), now()
           from generate_series(1, 2) k`,
        [user.id],
      );
      const others = await em().count(PersonalDocument, { user: { $ne: user.id } });
      const res = await post('delete-user', { userId: user.id });
      expect(res.status, res.text).toBe(200);
      expect(deleteUserAnswer.parse(res.json)).toEqual({ message: `${user.email} was deleted, with 2 personal documents.`, removedDocuments: 2 });
      expect(await profileStatus(token)).toBe(401);
      expect(await em().count(User, { id: user.id })).toBe(0);
      expect(await em().count(PropertyAccess, { user: user.id })).toBe(0);
      expect(await em().count(PersonalDocument, { user: user.id })).toBe(0);
      expect(await em().count(PersonalDocument, {})).toBe(others);
      const audit = await em().findOneOrFail(AuditEvent, { action: 'delete-user' }, { orderBy: { id: 'desc' } });
      expect(audit.details?.subject).toEqual({ type: 'user', id: user.id, label: user.email });
      expect((await post('delete-user', { userId: user.id })).status).toBe(404);
    });

    it('refuses an administrator deleting their own account', async () => {
      const email = freshEmail('second.admin');
      await create({ name: 'Second Admin', email, role: 'administrator', password: typedPassword });
      const token = await client.signIn(email, typedPassword);
      const self = await em().findOneOrFail(User, { email });
      const res = await post('delete-user', { userId: self.id }, token);
      expect(res.status).toBe(409);
      expect(res.json).toEqual({ error: 'You cannot delete your own account. Ask another administrator to do it.' });
    });
  });

  describe('reset-password', () => {
    it("queues the portal's reset link for the user and answers emailSent", async () => {
      const { user } = await create({ name: 'Reese Reset', email: freshEmail() });
      const res = await post('reset-password', { userId: user.id });
      expect(res.status, res.text).toBe(200);
      expect(adminResetPasswordAnswer.parse(res.json)).toMatchObject({ emailSent: true });
      const token = await linkTokenIn(user.email);
      expect((await resetWith(token, 'Fresh@Pass1')).status).toBe(200);
      expect((await client.call('/api/investor/login', { body: { email: user.email, password: 'Fresh@Pass1' } })).status).toBe(200);
    });

    it('refuses a deactivated account with 409, as its link could not be used', async () => {
      const { user } = await create({ name: 'Ina Inactive', email: freshEmail() });
      expect((await post('edit-user', { userId: user.id, isActive: false })).status).toBe(200);
      const res = await post('reset-password', { userId: user.id });
      expect(res.status).toBe(409);
      expect(await mailsTo(user.email)).toHaveLength(0);
    });
  });

  describe('property access', () => {
    const linksOf = async (userId: number) =>
      adminUserPropertiesAnswer
        .parse((await client.call('/api/admin/user-properties', { token: admin })).json)
        .userProperties.filter((l) => l.userId === userId)
        .map((l) => l.property);

    it('assigns an investor-relations property, twice without error, and removes it, twice without error', async () => {
      const { user } = await create({ name: 'Axel Access', email: freshEmail() });
      const first = await post('assign-property', { userId: user.id, property: 'Heartland Plaza' });
      expect(first.status, first.text).toBe(200);
      expect(messageAnswer.parse(first.json).message).toBe('Axel Access now has access to Heartland Plaza.');
      const second = await post('assign-property', { userId: user.id, property: 'Heartland Plaza' });
      expect(second.status).toBe(200);
      expect(messageAnswer.parse(second.json).message).toBe('Axel Access already had access to Heartland Plaza.');
      expect(await linksOf(user.id)).toEqual(['Heartland Plaza']);

      const removed = await post('remove-property', { userId: user.id, property: 'Heartland Plaza' });
      expect(messageAnswer.parse(removed.json).message).toBe('Axel Access no longer has access to Heartland Plaza.');
      const again = await post('remove-property', { userId: user.id, property: 'Heartland Plaza' });
      expect(again.status).toBe(200);
      expect(messageAnswer.parse(again.json).message).toBe('Axel Access had no access to Heartland Plaza: nothing to remove.');
      expect(await linksOf(user.id)).toEqual([]);
      const audited = await em().find(AuditEvent, { action: { $in: ['assign-property', 'remove-property'] } });
      expect(audited.filter((r) => (r.details?.subject as { id?: number }).id === user.id)).toHaveLength(2);
    });

    it('refuses a property not flagged for investor relations, and an unknown one, with 400', async () => {
      const { user } = await create({ name: 'Nora Nonir', email: freshEmail() });
      const hq = await post('assign-property', { userId: user.id, property: 'Everest Properties Headquarters' });
      expect(hq.status).toBe(400);
      expect(hq.json).toEqual({
        error: "There is no property open to investor access named 'Everest Properties Headquarters'. Please choose one from the list.",
      });
      expect((await post('assign-property', { userId: user.id, property: 'Atlantis' })).status).toBe(400);
      expect((await post('remove-property', { userId: user.id, property: 'Atlantis' })).status).toBe(400);
      expect((await post('assign-property', { userId: 999_999, property: 'Aspen Ridge' })).status).toBe(404);
      expect(await linksOf(user.id)).toEqual([]);
    });
  });
});
