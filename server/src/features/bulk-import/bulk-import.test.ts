import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bulkImportUsersAnswer,
  previewBulkImportAnswer,
  type BulkImportCsvRow,
  type BulkImportUsersAnswer,
  type ImportPreview,
} from '@everest/core/contract';
import { maxImportCsvBytes, maxImportRows, parseBulkImportCsv, portalMessages, staffRowConfirmationOf } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { welcomeMail } from '../auth/auth-mail';
import { welcomeLinkLifetimeMs } from '../auth/password-links';
import { PasswordResetToken } from '../auth/password-reset-token.entity';
import { recordingClient } from '../../../test/test-client';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { queuedMails } from '../../../test/queued-mails';
import { Property } from '../properties/property.entity';
import { adminUserMessages } from '../users/admin-users.service';
import { PropertyAccess } from '../users/property-access.entity';
import { User } from '../users/user.entity';
import { propertyAccessMail } from './bulk-import-mail';
import { bulkImportMessages } from './bulk-import.service';
import { importTooLarge, maxImportJsonBytes } from './bulk-import.routes';

const publicUrl = 'https://portal.everest.example';
const linkPattern = /\/investor-services\?resetToken=([A-Za-z0-9_-]+)/;
const header = 'email,firstName,lastName,entity,role,propertyAccess,streetAddress,city,state,zipCode';
const exampleCsv = new URL('../../../../fixtures/files/csv/bulk-user-import-example.csv', import.meta.url);

/** windows-1252 bytes of a text whose characters are all in Latin-1 (the two agree there). */
function cp1252(text: string): Uint8Array {
  return Uint8Array.from([...text].map((ch) => ch.charCodeAt(0)));
}

describe('bulk user import', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let admin = '';
  const em = () => server.services.orm.em.fork();
  let counter = 0;
  /** A prefix of its own for each test, so that tests sharing the database never meet. */
  const fresh = () => `t${(counter += 1)}`;

  /** Every row of a CSV, valid or not, as the core reads it: the server's own check is what a test sees. */
  function rowsOf(csv: string | Uint8Array): BulkImportCsvRow[] {
    const parsed = parseBulkImportCsv(csv);
    expect(parsed.error).toBeNull();
    return parsed.rows;
  }

  async function preview(csvData: unknown[], defaultRole?: string): Promise<ImportPreview> {
    const res = await client.call('/api/admin/preview-bulk-import', { token: admin, body: { csvData, defaultRole } });
    expect(res.status, res.text).toBe(200);
    return previewBulkImportAnswer.parse(res.json).preview;
  }
  async function importRows(csvData: unknown[], options: object = {}): Promise<BulkImportUsersAnswer> {
    const res = await client.call('/api/admin/bulk-import-users', { token: admin, body: { csvData, ...options } });
    expect(res.status, res.text).toBe(200);
    return bulkImportUsersAnswer.parse(res.json);
  }
  /** The confirmations of every staff row of a preview, as the panel sends them once ticked (issue 33). */
  async function staffOf(csvData: unknown[], defaultRole?: string) {
    return (await preview(csvData, defaultRole)).staffRows.map(staffRowConfirmationOf);
  }
  const counts = async () => {
    const e = em();
    return {
      users: await e.count(User, {}),
      mails: await e.count(OutboxMessage, {}),
      tokens: await e.count(PasswordResetToken, {}),
      access: await e.count(PropertyAccess, {}),
    };
  };

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { PUBLIC_URL: publicUrl } });
    client = recordingClient(server);
    admin = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  describe('preview-bulk-import', () => {
    it('previews the fixture CSV: new users, existing users with only real changes, errors with their lines', async () => {
      const before = await counts();
      const result = await preview(rowsOf(readFileSync(exampleCsv)));
      expect(result.newUsers.map((u) => u.email)).toEqual([
        'laura.bennett@example.com',
        'treasury@harborpoint.example.com',
        'marcus.lee@example.com',
        'elena.ruiz@example.com',
      ]);
      expect(result.newUsers[1]).toEqual({
        email: 'treasury@harborpoint.example.com',
        firstName: '',
        lastName: '',
        entity: 'Harbor Point Capital LLC',
        role: 'user',
        propertyAccess: ['Heartland Plaza'],
        identifiers: [],
      });
      // Issue 33: the employee of the example is listed apart, as a new staff account.
      expect(result.newUsers.map((u) => u.role)).toEqual(['user', 'user', 'everest_employee', 'user']);
      expect(result.staffRows).toEqual([
        {
          row: 4,
          email: 'marcus.lee@example.com',
          firstName: 'Marcus',
          lastName: 'Lee',
          entity: 'Everest Properties',
          role: 'everest_employee',
          previousRole: null,
          change: 'new',
        },
      ]);
      const carter = result.existingUsers.find((u) => u.email === 'investor@example.com');
      expect(carter?.hasChanges).toBe(true);
      // Only what differs from the seeded James Carter: nothing that is equal is listed.
      for (const [field, change] of Object.entries(carter?.changes ?? {})) expect(change.from, field).not.toBe(change.to);
      // Issue 35: with the bad value, so the administrator sees what to fix.
      expect(result.errors).toEqual([{ row: 7, error: 'Email is not a valid email address.', value: 'pat.morgan.example.com' }]);
      // A preview writes nothing.
      expect(await counts()).toEqual(before);
    });

    it("lists field changes from/to with '(empty)', leaves empty cells alone, and lists new property access", async () => {
      const p = fresh();
      await importRows(rowsOf(`${header}\n${p}.ann@example.com,Ann,Lee,,,Aspen Ridge,1 Main St.,Pasadena,,`));
      const result = await preview(
        rowsOf(`${header}\n${p}.ann@example.com,Ann,Lee-Park,,,"Aspen Ridge, Mission Oaks",,Pasadena,CA,\n${p}.same@example.com,Sam,Same,,,,,,,`),
      );
      expect(result.existingUsers).toEqual([
        {
          email: `${p}.ann@example.com`,
          hasChanges: true,
          changes: { lastName: { from: 'Lee', to: 'Lee-Park' }, state: { from: '(empty)', to: 'CA' } },
          newPropertyAccess: ['Mission Oaks'],
          newIdentifiers: [],
          removedIdentifiers: [],
        },
      ]);
      expect(result.newUsers.map((u) => u.email)).toEqual([`${p}.same@example.com`]);
    });

    it('leaves out existing users without changes', async () => {
      const p = fresh();
      const csv = `${header}\n${p}.a@example.com,Ann,Lee,,,Aspen Ridge,,,,`;
      await importRows(rowsOf(csv));
      expect(await preview(rowsOf(csv))).toEqual({ newUsers: [], existingUsers: [], errors: [], staffRows: [] });
    });

    it('says each row rule with the file line: email, names or entity, role, duplicates, exact property names', async () => {
      const p = fresh();
      const rows: BulkImportCsvRow[] = [
        { line: 2, firstName: 'No', lastName: 'Email' },
        { line: 3, email: 'not-an-email', entity: 'X' },
        { line: 5, email: `${p}.a@example.com`, firstName: 'Only' },
        { line: 6, email: `${p}.b@example.com`, entity: 'B', role: 'owner' },
        { line: 7, email: `${p}.c@example.com`, entity: 'C', propertyAccess: 'aspen ridge' },
        { line: 8, email: `${p}.d@example.com`, entity: 'D', propertyAccess: 'Fig Garden Court' },
        { line: 9, email: `${p}.e@example.com`, entity: 'E' },
        { line: 12, email: `${p.toUpperCase()}.E@example.com`, entity: 'E again' },
      ];
      const result = await preview(rows);
      expect(result.errors).toEqual([
        { row: 2, error: 'Email is required.' },
        { row: 3, error: 'Email is not a valid email address.', value: 'not-an-email' },
        { row: 5, error: 'Either firstName and lastName, or entity, is required.' },
        { row: 6, error: 'Role must be user, everest_employee or administrator.', value: 'owner' },
        { row: 7, error: 'Unknown property "aspen ridge": property names must match exactly.' },
        // Not flagged for investor relations, so not assignable.
        { row: 8, error: 'Unknown property "Fig Garden Court": property names must match exactly.' },
        { row: 12, error: 'This email appears more than once in the file (first on line 9).', value: `${p.toUpperCase()}.E@example.com` },
      ]);
      expect(result.newUsers.map((u) => u.email)).toEqual([`${p}.e@example.com`]);
    });

    it('numbers rows sent without a line by their place, the first data row being 2', async () => {
      const result = await preview([{ email: 'ok.place@example.com', entity: 'A' }, { email: 'bad' }]);
      expect(result.errors).toEqual([{ row: 3, error: 'Email is not a valid email address.', value: 'bad' }]);
    });

    it('refuses an empty list, and callers other than administrators', async () => {
      const empty = await client.call('/api/admin/preview-bulk-import', { token: admin, body: { csvData: [] } });
      expect(empty.status).toBe(400);
      expect(empty.json).toEqual({ error: portalMessages.noDataInCsv });
      const investor = await client.signIn('investor@example.com');
      const body = { csvData: [{ email: 'x@example.com', entity: 'X' }] };
      expect((await client.call('/api/admin/preview-bulk-import', { token: investor, body })).status).toBe(403);
      expect((await client.call('/api/admin/bulk-import-users', { token: investor, body })).status).toBe(403);
      expect((await client.call('/api/admin/bulk-import-users', { body })).status).toBe(401);
    });
  });

  describe('bulk-import-users', () => {
    it('creates users without a password, with their access, and a welcome e-mail whose 7-day link sets one', async () => {
      const p = fresh();
      const csv = `${header}\n${p}.new@example.com,Nora,New,,,"Aspen Ridge,Mission Oaks",5 Elm St.,Glendale,CA,91203\n${p}.trust@example.com,,,${p} Trust,everest_employee,,,,,\nbad-row,,,,,,,,,`;
      const answer = await importRows(rowsOf(csv), {
        sendWelcomeEmails: true,
        defaultRole: 'user',
        confirmedStaffRows: [{ email: `${p}.trust@example.com`, role: 'everest_employee' }],
      });
      expect(answer.success).toBe(true);
      expect(answer.results).toEqual({
        imported: 2,
        updated: 0,
        skipped: 0,
        failed: 1,
        emailsSent: 2,
        propertyUpdateEmailsSent: 0,
        errors: [{ row: 4, error: 'Email is not a valid email address.', value: 'bad-row' }],
      });
      expect(answer.message).toBe('2 users imported, 0 updated, 0 skipped, 1 failed. 2 welcome emails queued.');

      const e = em();
      const nora = await e.findOneOrFail(User, { email: `${p}.new@example.com` });
      expect(nora).toMatchObject({ firstName: 'Nora', lastName: 'New', streetAddress: '5 Elm St.', city: 'Glendale', role: 'user', isActive: true });
      expect(nora.passwordHash).toBe('');
      const trust = await e.findOneOrFail(User, { email: `${p}.trust@example.com` });
      expect(trust).toMatchObject({ entity: `${p} Trust`, role: 'everest_employee' });
      const access = await e.find(PropertyAccess, { user: nora.id }, { populate: ['property'] });
      expect(access.map((a) => a.property.name).sort()).toEqual(['Aspen Ridge', 'Mission Oaks']);

      // No password: no sign-in until the link is used.
      const noPassword = await client.call('/api/investor/login', { body: { email: nora.email, password: 'Anything@1' } });
      expect(noPassword.status).toBe(401);
      const [token] = await e.find(PasswordResetToken, { user: nora.id });
      const lifetime = (token?.expiresAt.getTime() ?? 0) - (token?.createdAt.getTime() ?? 0);
      expect(lifetime).toBeGreaterThan(welcomeLinkLifetimeMs - 60_000);
      expect(lifetime).toBeLessThanOrEqual(welcomeLinkLifetimeMs + 1000);

      const [mail] = await queuedMails(e, { recipient: nora.email });
      expect(mail?.subject).toBe('Welcome to the Everest Properties investor portal');
      expect(mail?.text).toContain('Hello Nora New,');
      expect(mail?.text).toContain('for the next 7 days');
      expect(mail?.status).toBe('pending');
      const link = linkPattern.exec(mail?.text ?? '')?.[1] ?? '';
      expect(mail?.text).toContain(`${publicUrl}/investor-services?resetToken=`);
      const password = 'Chosen@Pass1';
      const reset = await client.call('/api/investor/reset-password', { body: { token: link, password, confirmPassword: password } });
      expect(reset.status, reset.text).toBe(200);
      await client.signIn(nora.email, password);
      // Single use.
      const again = await client.call('/api/investor/reset-password', { body: { token: link, password, confirmPassword: password } });
      expect(again.status).not.toBe(200);

      const audit = await e.find(AuditEvent, { action: 'bulk-import-users' }, { orderBy: { id: 'desc' }, limit: 1 });
      expect(audit[0]?.details).toMatchObject({
        actorEmail: 'admin@example.com',
        after: { imported: [`${p}.new@example.com`, `${p}.trust@example.com`], failed: 1, emailsSent: 2 },
      });
    });

    it('queues e-mails set-based that read exactly as the templates render them, odd names included', async () => {
      const p = fresh();
      const email = `${p}.o'brien@example.com`;
      const csv = `${header}\n"${email}","Seán <b>","O'Brien & Co",,,Aspen Ridge,,,,`;
      await importRows(rowsOf(csv), { sendWelcomeEmails: true });
      const [welcome] = await queuedMails(em(), { recipient: email });
      const link = `${publicUrl}/investor-services?resetToken=${linkPattern.exec(welcome?.text ?? '')?.[1] ?? ''}`;
      const expected = welcomeMail(email, "Seán <b> O'Brien & Co", link, 7);
      expect(welcome).toMatchObject({ subject: expected.subject, text: expected.text, html: expected.html });
      expect(welcome?.html).toContain('Hello Seán &lt;b&gt; O&#39;Brien &amp; Co,');

      const update = `${header}\n"${email}","Seán <b>","O'Brien & Co",,,"Aspen Ridge,Mission Oaks,Cedar Hollow",,,,`;
      await importRows(rowsOf(update), { duplicateHandling: 'update', sendUpdateEmails: true });
      const [, access] = await queuedMails(em(), { recipient: email });
      const expectedAccess = propertyAccessMail(email, "Seán <b> O'Brien & Co", ['Mission Oaks', 'Cedar Hollow'], `${publicUrl}/investor-services`);
      expect(access).toMatchObject({ subject: expectedAccess.subject, text: expectedAccess.text, html: expectedAccess.html });
      expect(access?.html).toContain('Mission Oaks<br>Cedar Hollow');
    });

    it('a second run of the same file imports, changes and e-mails nothing (skip and update alike)', async () => {
      const p = fresh();
      const csv = `${header}\n${p}.a@example.com,Ann,Lee,,,Aspen Ridge,,,,\n${p}.b@example.com,Bob,Lee,,administrator,,,,,`;
      const first = await importRows(rowsOf(csv), { sendWelcomeEmails: true, sendUpdateEmails: true, confirmedStaffRows: await staffOf(rowsOf(csv)) });
      expect(first.results).toMatchObject({ imported: 2, emailsSent: 2 });
      const before = await counts();
      const audits = await em().count(AuditEvent, { action: 'bulk-import-users' });
      for (const duplicateHandling of ['skip', 'update'] as const) {
        const second = await importRows(rowsOf(csv), { sendWelcomeEmails: true, sendUpdateEmails: true, duplicateHandling });
        expect(second.results).toEqual({ imported: 0, updated: 0, skipped: 2, failed: 0, emailsSent: 0, propertyUpdateEmailsSent: 0, errors: [] });
      }
      expect(await counts()).toEqual(before);
      // Each run is still audited, once.
      expect(await em().count(AuditEvent, { action: 'bulk-import-users' })).toBe(audits + 2);
    });

    it('skip (the default) leaves existing users exactly as they are', async () => {
      const p = fresh();
      await importRows(rowsOf(`${header}\n${p}.a@example.com,Ann,Lee,,,,,,,`));
      const before = await counts();
      const answer = await importRows(rowsOf(`${header}\n${p}.a@example.com,Anna,Leigh,,administrator,Aspen Ridge,,,,`), { sendUpdateEmails: true });
      expect(answer.results).toMatchObject({ imported: 0, updated: 0, skipped: 1, propertyUpdateEmailsSent: 0 });
      expect(await em().findOneOrFail(User, { email: `${p}.a@example.com` })).toMatchObject({ firstName: 'Ann', lastName: 'Lee', role: 'user' });
      expect(await counts()).toEqual(before);
    });

    it('update applies only real changes, keeps what empty cells leave, adds access and e-mails it', async () => {
      const p = fresh();
      const email = `${p}.u@example.com`;
      await importRows(rowsOf(`${header}\n${email},Una,Lee,,,Aspen Ridge,1 Main St.,Pasadena,CA,91101\n${p}.same@example.com,Sam,Same,,,,,,,`));
      const user = await em().findOneOrFail(User, { email });
      const before = { tokenVersion: user.tokenVersion, updatedAt: user.updatedAt };
      const same = await em().findOneOrFail(User, { email: `${p}.same@example.com` });

      const csv = `${header}\n${email},Una,Lee-Park,,everest_employee,"Aspen Ridge,Mission Oaks",,,,91106\n${p}.same@example.com,Sam,Same,,,,,,,`;
      const expected = {
        email,
        hasChanges: true,
        changes: {
          lastName: { from: 'Lee', to: 'Lee-Park' },
          role: { from: 'user', to: 'everest_employee' },
          zipCode: { from: '91101', to: '91106' },
        },
        newPropertyAccess: ['Mission Oaks'],
        newIdentifiers: [],
        removedIdentifiers: [],
      };
      expect((await preview(rowsOf(csv))).existingUsers).toEqual([expected]);

      const answer = await importRows(rowsOf(csv), {
        duplicateHandling: 'update',
        sendUpdateEmails: true,
        confirmedStaffRows: [{ email, role: 'everest_employee' }],
      });
      expect(answer.results).toMatchObject({ imported: 0, updated: 1, skipped: 1, emailsSent: 0, propertyUpdateEmailsSent: 1 });

      const e = em();
      const after = await e.findOneOrFail(User, { email });
      expect(after).toMatchObject({
        firstName: 'Una',
        lastName: 'Lee-Park',
        role: 'everest_employee',
        streetAddress: '1 Main St.',
        city: 'Pasadena',
        state: 'CA',
        zipCode: '91106',
      });
      // A new role ends the user's sessions, as edit-user does.
      expect(after.tokenVersion).toBe(before.tokenVersion + 1);
      const access = await e.find(PropertyAccess, { user: after.id }, { populate: ['property'] });
      expect(access.map((a) => a.property.name).sort()).toEqual(['Aspen Ridge', 'Mission Oaks']);
      // The unchanged user was not written at all.
      expect((await e.findOneOrFail(User, { email: `${p}.same@example.com` })).updatedAt).toEqual(same.updatedAt);

      const mails = await queuedMails(e, { recipient: email });
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toBe('You have access to a new property in your investor portal');
      expect(mails[0]?.text).toContain('Mission Oaks');
      expect(mails[0]?.text).not.toContain('Aspen Ridge');

      const audit = await e.find(AuditEvent, { action: 'bulk-import-users' }, { orderBy: { id: 'desc' }, limit: 1 });
      expect(audit[0]?.details).toMatchObject({ after: { duplicateHandling: 'update', updated: [{ email, changes: expected.changes }] } });
    });

    it('an address-only change updates without a property e-mail', async () => {
      const p = fresh();
      const email = `${p}.addr@example.com`;
      await importRows(rowsOf(`${header}\n${email},Al,Dress,,,Aspen Ridge,,,,`));
      const answer = await importRows(rowsOf(`${header}\n${email},Al,Dress,,,,9 Oak St.,,,`), { duplicateHandling: 'update', sendUpdateEmails: true });
      expect(answer.results).toMatchObject({ updated: 1, propertyUpdateEmailsSent: 0 });
      expect(await em().findOneOrFail(User, { email })).toMatchObject({ firstName: 'Al', streetAddress: '9 Oak St.' });
      expect(await em().count(OutboxMessage, { recipient: email })).toBe(0);
    });

    it('fail writes nothing at all when any row is an existing user', async () => {
      const p = fresh();
      await importRows(rowsOf(`${header}\n${p}.old@example.com,Old,User,,,,,,,`));
      const before = await counts();
      const audits = await em().count(AuditEvent, {});
      const csv = `${header}\n${p}.new1@example.com,New,One,,,Aspen Ridge,,,,\n${p}.old@example.com,Changed,User,,,,,,,\n${p}.new2@example.com,New,Two,,,,,,,`;
      const res = await client.call('/api/admin/bulk-import-users', {
        token: admin,
        body: { csvData: rowsOf(csv), duplicateHandling: 'fail', sendWelcomeEmails: true },
      });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({ error: bulkImportMessages.duplicatesFound(1, [`${p}.old@example.com`]) });
      expect((res.json as { error: string }).error).toBe(
        `1 user in the file already exists (${p}.old@example.com), and duplicate handling is 'fail': nothing was imported.`,
      );
      expect(await counts()).toEqual(before);
      expect(await em().count(AuditEvent, {})).toBe(audits);
      expect(await em().count(User, { email: `${p}.new1@example.com` })).toBe(0);

      // Without a duplicate, fail imports like the others.
      const ok = await importRows(rowsOf(`${header}\n${p}.new1@example.com,New,One,,,,,,,`), { duplicateHandling: 'fail' });
      expect(ok.results.imported).toBe(1);
    });

    it('keeps the built-in administrator an administrator, whatever the file says', async () => {
      const builtIn = await importRows([{ line: 2, email: 'admin@example.com', entity: 'Everest', role: 'user' }], { duplicateHandling: 'update' });
      expect(builtIn.results).toMatchObject({ updated: 0, failed: 1, errors: [{ row: 2, error: adminUserMessages.builtInRole }] });
      expect((await em().findOneOrFail(User, { email: 'admin@example.com' })).role).toBe('administrator');

    });

    it('refuses an import that would leave no active administrator', async () => {
      // Where ADMIN_EMAIL names no account (an old database), the seeded administrator is the
      // only one, and a file may not demote them.
      const other = await startTestServer({ seed: true, env: { ADMIN_EMAIL: 'owner@example.com' } });
      try {
        const otherClient = recordingClient(other);
        const token = await otherClient.signIn('admin@example.com');
        const res = await otherClient.call('/api/admin/bulk-import-users', {
          token,
          body: {
            csvData: [{ email: 'admin@example.com', role: 'user', entity: 'Everest' }],
            duplicateHandling: 'update',
            confirmedStaffRows: [{ email: 'admin@example.com', role: 'user' }],
          },
        });
        expect(res.status).toBe(409);
        expect(res.json).toEqual({ error: adminUserMessages.lastAdministrator });
        const e = other.services.orm.em.fork();
        expect((await e.findOneOrFail(User, { email: 'admin@example.com' })).role).toBe('administrator');
        expect(await e.count(AuditEvent, { action: 'bulk-import-users' })).toBe(0);
      } finally {
        await other.close();
      }
    });

    it("imports Excel's windows-1252 file with accented names and a semicolon file alike", async () => {
      const p = fresh();
      const latin = cp1252(
        `${header}\r\n${p}.jose@example.com,José,Muñoz,,,"Aspen Ridge,Mission Oaks",1 Côte St.,Montréal,QC,H2X\r\n${p}.zoe@example.com,Zoë,Brontë,,,,,,,\r\n`,
      );
      const semicolon = `${header.replaceAll(',', ';')}\n${p}.sem@example.com;Søren;Ødegård;;everest_employee;"Aspen Ridge,Mission Oaks";"1 Main St.; Apt 2";Oslo;;0150\n`;
      const latinParse = parseBulkImportCsv(latin);
      expect([latinParse.encoding, latinParse.delimiter]).toEqual(['windows-1252', ',']);
      const semicolonParse = parseBulkImportCsv(new TextEncoder().encode(semicolon));
      expect([semicolonParse.encoding, semicolonParse.delimiter]).toEqual(['utf-8', ';']);

      expect((await importRows(latinParse.csvData)).results).toMatchObject({ imported: 2, failed: 0 });
      const soren_ = { email: `${p}.sem@example.com`, role: 'everest_employee' };
      expect((await importRows(semicolonParse.csvData, { confirmedStaffRows: [soren_] })).results).toMatchObject({ imported: 1, failed: 0 });
      const e = em();
      expect(await e.findOneOrFail(User, { email: `${p}.jose@example.com` })).toMatchObject({ firstName: 'José', lastName: 'Muñoz', city: 'Montréal', streetAddress: '1 Côte St.' });
      expect(await e.findOneOrFail(User, { email: `${p}.zoe@example.com` })).toMatchObject({ firstName: 'Zoë', lastName: 'Brontë' });
      const soren = await e.findOneOrFail(User, { email: `${p}.sem@example.com` });
      expect(soren).toMatchObject({ firstName: 'Søren', lastName: 'Ødegård', role: 'everest_employee', streetAddress: '1 Main St.; Apt 2', zipCode: '0150' });
      const access = await e.find(PropertyAccess, { user: soren.id }, { populate: ['property'] });
      expect(access.map((a) => a.property.name).sort()).toEqual(['Aspen Ridge', 'Mission Oaks']);
    });

    it('takes the rows of a full 5 MB CSV, and refuses a larger body with a sentence', async () => {
      // 10,000 rows of accented windows-1252 text, just under 5 MB: the largest file there is.
      const lines = [header];
      const perRow = Math.floor((maxImportCsvBytes - header.length) / maxImportRows) - 2;
      const e = (n: number) => 'é'.repeat(n);
      for (let i = 0; i < maxImportRows; i += 1) {
        const base = `big.${i}@example.com,Zoë,Brontë,,user,,,,CA,91101`;
        const room = perRow - base.length;
        const entity = Math.min(200, room);
        const street = Math.min(200, room - entity);
        lines.push(`big.${i}@example.com,Zoë,Brontë,${e(entity)},user,,${e(street)},${e(room - entity - street)},CA,91101`);
      }
      const bytes = cp1252(lines.join('\r\n'));
      expect(bytes.byteLength).toBeLessThanOrEqual(maxImportCsvBytes);
      expect(bytes.byteLength).toBeGreaterThan(maxImportCsvBytes * 0.9);
      const parsed = parseBulkImportCsv(bytes);
      expect(parsed.errors).toEqual([]);
      // Every cell gets its own line so the JSON is as large as such a file makes it.
      const result = await preview(parsed.csvData);
      expect(result.newUsers).toHaveLength(maxImportRows);

      const tooLarge = JSON.stringify({ csvData: [{ email: 'a@example.com', entity: 'x'.repeat(maxImportJsonBytes) }] });
      const res = await server.api('/api/admin/preview-bulk-import', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: tooLarge,
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: importTooLarge });
      // Other calls keep their small limit.
      const other = await server.api('/api/admin/create-user', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify({ name: 'x'.repeat(200_000) }),
      });
      expect(other.status).toBe(413);
    });
  });

  describe('staff accounts (issue 33)', () => {
    /** The import's answer as it is, refusals included. */
    const tryImport = (csvData: unknown[], options: object = {}) =>
      client.call('/api/admin/bulk-import-users', { token: admin, body: { csvData, sendWelcomeEmails: true, ...options } });
    const notConfirmed = (message: string) => expect.stringMatching(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

    it('names each row role in the preview, and lists new staff accounts and role changes apart', async () => {
      const p = fresh();
      await importRows(rowsOf(`${header}\n${p}.inv@example.com,Ivy,Inv,,,,,,,\n${p}.boss@example.com,Bo,Boss,,administrator,,,,,`), {
        confirmedStaffRows: [{ email: `${p}.boss@example.com`, role: 'administrator' }],
      });
      const csv = [
        header,
        `${p}.adm@example.com,Ada,Admin,,administrator,,,,,`,
        `${p}.emp@example.com,,,${p} Staffing,everest_employee,,,,,`,
        `${p}.plain@example.com,Pat,Plain,,,,,,,`,
        `${p}.inv@example.com,Ivy,Inv,,Administrator,,,,,`,
        `${p}.boss@example.com,Bo,Boss,,user,,,,,`,
      ].join('\n');
      const result = await preview(rowsOf(csv));
      expect(result.newUsers.map((u) => [u.email, u.role])).toEqual([
        [`${p}.adm@example.com`, 'administrator'],
        [`${p}.emp@example.com`, 'everest_employee'],
        [`${p}.plain@example.com`, 'user'],
      ]);
      expect(result.staffRows.map((r) => [r.row, r.email, r.previousRole, r.role, r.change])).toEqual([
        [2, `${p}.adm@example.com`, null, 'administrator', 'new'],
        [3, `${p}.emp@example.com`, null, 'everest_employee', 'new'],
        [5, `${p}.inv@example.com`, 'user', 'administrator', 'promoted'],
        [6, `${p}.boss@example.com`, 'administrator', 'user', 'demoted'],
      ]);
      // The default role counts: a file without a role column, imported as administrators.
      const byDefault = await preview(rowsOf(`email,firstName,lastName\n${p}.d@example.com,Dee,Fault`), 'administrator');
      expect(byDefault.staffRows.map((r) => [r.email, r.role, r.change])).toEqual([[`${p}.d@example.com`, 'administrator', 'new']]);
    });

    it('refuses an import with an unconfirmed administrator row (409 naming it) before writing or e-mailing anything', async () => {
      const p = fresh();
      const csv = `${header}\n${p}.ann@example.com,Ann,Lee,,,Aspen Ridge,,,,\n${p}.adm@example.com,Ada,Admin,,administrator,,,,,`;
      const before = await counts();
      const audits = await em().count(AuditEvent, {});
      for (const confirmedStaffRows of [undefined, [], [{ email: `${p}.ann@example.com`, role: 'user' }]]) {
        const res = await tryImport(rowsOf(csv), { confirmedStaffRows });
        expect(res.status, res.text).toBe(409);
        expect(res.json).toEqual({
          error: `This staff row was not confirmed: row 3, ${p}.adm@example.com (Administrator, new account). Nothing was imported: preview the file again and confirm the staff accounts.`,
        });
      }
      expect(await counts()).toEqual(before);
      expect(await em().count(AuditEvent, {})).toBe(audits);
      expect(await em().count(User, { email: { $in: [`${p}.ann@example.com`, `${p}.adm@example.com`] } })).toBe(0);
    });

    it('creates the administrator once its row is confirmed, and audits the confirmation', async () => {
      const p = fresh();
      const csv = `${header}\n${p}.adm@example.com,Ada,Admin,,administrator,,,,,`;
      const confirmed = await staffOf(rowsOf(csv));
      expect(confirmed).toEqual([{ email: `${p}.adm@example.com`, role: 'administrator' }]);
      const answer = await importRows(rowsOf(csv), { sendWelcomeEmails: true, confirmedStaffRows: confirmed });
      expect(answer.results).toMatchObject({ imported: 1, emailsSent: 1 });
      expect(await em().findOneOrFail(User, { email: `${p}.adm@example.com` })).toMatchObject({ role: 'administrator', passwordHash: '' });
      const [audit] = await em().find(AuditEvent, { action: 'bulk-import-users' }, { orderBy: { id: 'desc' }, limit: 1 });
      expect(audit?.details).toMatchObject({
        after: { staffRows: [{ row: 2, email: `${p}.adm@example.com`, previousRole: null, role: 'administrator', change: 'new' }] },
      });
    });

    it('counts a promotion (and a demotion) of an existing account when existing users are updated, and not when they are skipped', async () => {
      const p = fresh();
      await importRows(rowsOf(`${header}\n${p}.inv@example.com,Ivy,Inv,,,,,,,`));
      const csv = `${header}\n${p}.inv@example.com,Ivy,Inv,,administrator,,,,,`;
      const refused = await tryImport(rowsOf(csv), { duplicateHandling: 'update' });
      expect(refused.status).toBe(409);
      expect((refused.json as { error: string }).error).toMatch(
        new RegExp(`^This staff row was not confirmed: row 2, ${p}\\.inv@example\\.com \\(Investor → Administrator, promoted\\)\\.`),
      );
      expect((await em().findOneOrFail(User, { email: `${p}.inv@example.com` })).role).toBe('user');
      // Skip leaves the account as it is: nothing to confirm.
      expect((await importRows(rowsOf(csv))).results).toMatchObject({ skipped: 1, updated: 0 });
      const promoted = await importRows(rowsOf(csv), { duplicateHandling: 'update', confirmedStaffRows: await staffOf(rowsOf(csv)) });
      expect(promoted.results).toMatchObject({ updated: 1 });
      expect((await em().findOneOrFail(User, { email: `${p}.inv@example.com` })).role).toBe('administrator');

      const back = `${header}\n${p}.inv@example.com,Ivy,Inv,,user,,,,,`;
      expect((await tryImport(rowsOf(back), { duplicateHandling: 'update' })).status).toBe(409);
      await importRows(rowsOf(back), { duplicateHandling: 'update', confirmedStaffRows: [{ email: `${p}.inv@example.com`, role: 'user' }] });
      expect((await em().findOneOrFail(User, { email: `${p}.inv@example.com` })).role).toBe('user');
    });

    it('refuses a file changed after its preview, with a new administrator row or a higher role, even with the earlier confirmation', async () => {
      const p = fresh();
      const previewed = `${header}\n${p}.emp@example.com,Eve,Emp,,everest_employee,,,,,\n${p}.ann@example.com,Ann,Lee,,,,,,,`;
      const confirmed = await staffOf(rowsOf(previewed));
      expect(confirmed).toEqual([{ email: `${p}.emp@example.com`, role: 'everest_employee' }]);
      const before = await counts();

      const added = `${previewed}\n${p}.sneaky@example.com,Sly,Sneaky,,administrator,,,,,`;
      const res = await tryImport(rowsOf(added), { confirmedStaffRows: confirmed });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({ error: notConfirmed(`This staff row was not confirmed: row 4, ${p}.sneaky@example.com (Administrator, new account).`) });

      const raised = previewed.replace('everest_employee', 'administrator');
      const res2 = await tryImport(rowsOf(raised), { confirmedStaffRows: confirmed });
      expect(res2.status).toBe(409);
      expect(res2.json).toEqual({ error: notConfirmed(`This staff row was not confirmed: row 2, ${p}.emp@example.com (Administrator, new account).`) });
      expect(await counts()).toEqual(before);

      // The file as previewed goes through with its confirmation.
      expect((await importRows(rowsOf(previewed), { confirmedStaffRows: confirmed })).results).toMatchObject({ imported: 2 });
    });

    it('refuses confirmations that are not a list of e-mails and roles', async () => {
      const rows = [{ email: 'x@example.com', entity: 'X' }];
      for (const confirmedStaffRows of ['all', [{ email: 'x@example.com' }], [{ email: 5, role: 'user' }], [{ email: 'x@example.com', role: 'owner' }], true]) {
        const res = await tryImport(rows, { confirmedStaffRows });
        expect(res.status, JSON.stringify(confirmedStaffRows)).toBe(400);
        expect(typeof (res.json as { error?: unknown }).error).toBe('string');
      }
    });
  });

  describe('bulk-import-template', () => {
    it('is a CSV anyone may download, whose rows the import reads back as valid', async () => {
      const res = await server.api('/api/bulk-import-template');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="bulk-user-import-template.csv"');
      const bytes = new Uint8Array(await res.arrayBuffer());
      const text = new TextDecoder().decode(bytes);
      expect(text.split('\r\n')[0]).toBe(`${header},identifiers`);
      const properties = (await em().find(Property, { investorRelations: true })).map((p) => p.name);
      const parsed = parseBulkImportCsv(bytes, { knownPropertyNames: properties });
      expect(parsed.errors).toEqual([]);
      expect(parsed.valid).toHaveLength(3);
    });

    it('escapes a property name that looks like a formula', async () => {
      const e = em();
      const property = e.create(Property, { name: '=HYPERLINK("x")', investorRelations: true });
      await e.flush();
      try {
        const text = await (await server.api('/api/bulk-import-template')).text();
        expect(text).toContain(`"'=HYPERLINK(""x"")`);
        expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m);
      } finally {
        await em().nativeDelete(Property, { id: property.id });
      }
    });
  });
});
