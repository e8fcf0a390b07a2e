import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminUsersAnswer,
  bulkImportUsersAnswer,
  createUserAnswer,
  previewBulkImportAnswer,
  type AdminUser,
  type BulkImportUsersAnswer,
  type ImportPreview,
} from '@everest/core/contract';
import { contentMatchingMessages, parseBulkImportCsv } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { AuditEvent } from '../audit/audit-event.entity';
import { User } from '../users/user.entity';

describe("the bulk import's identifiers column", () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let admin = '';
  const em = () => server.services.orm.em.fork();
  let counter = 0;
  /** An e-mail of its own for each use, so that tests sharing the database never meet. */
  const email = (who: string) => `${who}.${(counter += 1)}@identifiers.example.com`;
  const header = 'email,firstName,lastName,entity,identifiers';

  const rowsOf = (csv: string) => {
    const parsed = parseBulkImportCsv(csv);
    expect(parsed.error).toBeNull();
    return parsed.rows;
  };
  async function preview(csv: string): Promise<ImportPreview> {
    const res = await client.call('/api/admin/preview-bulk-import', { token: admin, body: { csvData: rowsOf(csv) } });
    expect(res.status, res.text).toBe(200);
    return previewBulkImportAnswer.parse(res.json).preview;
  }
  async function importCsv(csv: string, duplicateHandling = 'update'): Promise<BulkImportUsersAnswer> {
    const res = await client.call('/api/admin/bulk-import-users', { token: admin, body: { csvData: rowsOf(csv), duplicateHandling } });
    expect(res.status, res.text).toBe(200);
    return bulkImportUsersAnswer.parse(res.json);
  }
  async function listed(address: string): Promise<AdminUser | undefined> {
    const res = await client.call(`/api/admin/users?search=${encodeURIComponent(address)}&page=1`, { token: admin });
    expect(res.status, res.text).toBe(200);
    return adminUsersAnswer.parse(res.json).users.find((u) => u.email === address);
  }
  async function investor(name: string, identifiers: string[] = []): Promise<AdminUser> {
    const created = await client.call('/api/admin/create-user', { token: admin, body: { name, email: email('existing') } });
    expect(created.status, created.text).toBe(200);
    const { id } = createUserAnswer.parse(created.json).user;
    if (identifiers.length > 0) {
      const edited = await client.call('/api/admin/edit-user', { token: admin, body: { userId: id, identifiers } });
      expect(edited.status, edited.text).toBe(200);
    }
    const user = await listed(createUserAnswer.parse(created.json).user.email);
    expect(user).toBeDefined();
    return user!;
  }

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    admin = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    await server.close();
  });

  it("gives new users the cell's identifiers, separated by semicolons, and previews them", async () => {
    const address = email('new');
    const csv = `${header}\n${address},Nora,Quill,,"Quill Family Trust dtd 3/1/2001; XXX-XX-4455 ;"\n`;
    const { newUsers, errors } = await preview(csv);
    expect(errors).toEqual([]);
    expect(newUsers.find((u) => u.email === address)?.identifiers).toEqual(['Quill Family Trust dtd 3/1/2001', 'XXX-XX-4455']);

    const answer = await importCsv(csv);
    expect(answer.results).toMatchObject({ imported: 1, failed: 0 });
    expect((await listed(address))?.identifiers).toEqual(['Quill Family Trust dtd 3/1/2001', 'XXX-XX-4455']);
  });

  it("replaces an existing user's identifiers as edit-user does, lists what it adds and removes, and audits it", async () => {
    const user = await investor('Otto Brand', ['Brand Trust', 'XXX-XX-1212']);
    // A new spelling of one they have is no change; the one left out goes; a new one comes.
    const csv = `${header}\n${user.email},Otto,Brand,,BRAND TRUST.;Brand Holdings LP\n`;
    const { existingUsers, errors } = await preview(csv);
    expect(errors).toEqual([]);
    expect(existingUsers.find((u) => u.email === user.email)).toMatchObject({
      newIdentifiers: ['Brand Holdings LP'],
      removedIdentifiers: ['XXX-XX-1212'],
    });

    const answer = await importCsv(csv);
    expect(answer.results).toMatchObject({ updated: 1, failed: 0 });
    expect((await listed(user.email))?.identifiers).toEqual(['BRAND TRUST.', 'Brand Holdings LP']);
    const audit = await em().findOne(AuditEvent, { action: 'bulk-import-users' }, { orderBy: { id: 'desc' } });
    expect((audit?.details?.after as { updated?: unknown[] } | undefined)?.updated).toEqual([
      { email: user.email, changes: {}, newPropertyAccess: [], newIdentifiers: ['Brand Holdings LP'], removedIdentifiers: ['XXX-XX-1212'] },
    ]);
  });

  it("an empty identifiers cell leaves an existing user's identifiers as they are", async () => {
    const user = await investor('Pia Lund', ['Lund Trust']);
    const csv = `${header}\n${user.email},Pia,Lund-Berg,,\n`;
    expect((await preview(csv)).existingUsers.find((u) => u.email === user.email)).toMatchObject({ newIdentifiers: [], removedIdentifiers: [] });
    await importCsv(csv);
    expect((await listed(user.email))?.identifiers).toEqual(['Lund Trust']);
  });

  it("refuses a row whose identifier another account has, with edit-user's sentence, in the preview and the import, and writes nothing of it", async () => {
    const holder = await investor('Rhea Stone', ['Stone Family Trust']);
    const named = await investor('Silas Marsh');
    const refused = email('refused');
    const fine = email('fine');
    const csv = [
      header,
      `${refused},Tam,Reed,,Reed Trust;stone family trust`,
      `${fine},Uma,Vale,,Vale Trust`,
      // Another account's full name is taken as an identifier of none but that account.
      `${email('by-name')},Vic,Wold,,SILAS MARSH`,
    ].join('\n');
    const { errors, newUsers } = await preview(csv);
    expect(errors).toEqual([
      { row: 2, error: contentMatchingMessages.identifierTaken('stone family trust', [holder.email]), value: 'stone family trust' },
      { row: 4, error: contentMatchingMessages.identifierTaken('SILAS MARSH', [named.email]), value: 'SILAS MARSH' },
    ]);
    expect(newUsers.map((u) => u.email)).toEqual([fine]);

    const before = await em().count(User, {});
    const answer = await importCsv(csv);
    expect(answer.results).toMatchObject({ imported: 1, failed: 2 });
    expect(answer.results.errors.map((e) => e.row)).toEqual([2, 4]);
    expect(await em().count(User, {})).toBe(before + 1);
    expect(await em().count(User, { email: refused })).toBe(0);
    expect((await listed(fine))?.identifiers).toEqual(['Vale Trust']);
  });

  it('keeps an identifier for the first of two rows that give it, as with a repeated e-mail', async () => {
    const first = email('first');
    const second = email('second');
    const csv = `${header}\n${first},Ada,Frost,,Frost Partners\n${second},Ben,Frost,,FROST PARTNERS\n`;
    const { errors } = await preview(csv);
    expect(errors).toEqual([{ row: 3, error: contentMatchingMessages.identifierTaken('FROST PARTNERS', [first]), value: 'FROST PARTNERS' }]);
  });

  it("refuses a new user, or a renamed one, whose name or entity is another account's added identifier", async () => {
    const holder = await investor('Gus Hale', ['Hale Orchard LLC']);
    const renamed = await investor('Ivy Ames');
    const csv = [
      header,
      `${email('new-entity')},,,Hale Orchard LLC,`,
      `${renamed.email},,,hale orchard llc,`,
      // Two investors may share a full name: each then needs an identifier of their own.
      `${email('same-name')},Gus,Hale,,`,
    ].join('\n');
    const sentence = (text: string) => contentMatchingMessages.identifierTaken(text, [holder.email]);
    const { errors, newUsers } = await preview(csv);
    expect(errors).toEqual([
      { row: 2, error: sentence('Hale Orchard LLC'), value: 'Hale Orchard LLC' },
      { row: 3, error: sentence('hale orchard llc'), value: 'hale orchard llc' },
    ]);
    expect(newUsers.map((u) => `${u.firstName} ${u.lastName}`)).toEqual(['Gus Hale']);
    await importCsv(csv);
    expect((await listed(renamed.email))?.entity).toBe('');
  });

  it('says a malformed identifier as a row error with the cell', async () => {
    const csv = `${header}\n${email('bad')},Jo,Kerr,,Kerr Trust;--\n`;
    const parsed = parseBulkImportCsv(csv);
    expect(parsed.errors).toEqual([{ row: 2, error: 'An identifier needs a letter or a digit: “--” has none.', value: 'Kerr Trust;--' }]);
  });
});
