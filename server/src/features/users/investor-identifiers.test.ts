import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUsersAnswer, createUserAnswer, editUserAnswer, type AdminUser, type CreateUserAnswer } from '@everest/core/contract';
import { contentMatchingMessages } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient, type Answer } from '../../../test/test-client';
import { AuditEvent } from '../audit/audit-event.entity';
import { InvestorIdentifier } from './investor-identifier.entity';

describe("an investor's added identifiers", () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let admin = '';
  const em = () => server.services.orm.em.fork();
  const post = (path: string, body: object, token = admin) => client.call(`/api/admin/${path}`, { token, body });
  let counter = 0;

  async function investor(name: string, entity = ''): Promise<CreateUserAnswer['user']> {
    const res = await post('create-user', { name, entity, email: `investor.${(counter += 1)}@example.com` });
    expect(res.status, res.text).toBe(200);
    return createUserAnswer.parse(res.json).user;
  }
  const identify = (userId: number, identifiers: string[]) => post('edit-user', { userId, identifiers });
  async function saved(userId: number, identifiers: string[]): Promise<AdminUser> {
    const res = await identify(userId, identifiers);
    expect(res.status, res.text).toBe(200);
    return editUserAnswer.parse(res.json).user;
  }
  async function listed(email: string): Promise<AdminUser | undefined> {
    const res = await client.call(`/api/admin/users?search=${encodeURIComponent(email)}&page=1`, { token: admin });
    expect(res.status, res.text).toBe(200);
    return adminUsersAnswer.parse(res.json).users.find((u) => u.email === email);
  }
  const refusal = (res: Answer) => (res.json as { error?: string } | null)?.error;

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    admin = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    await server.close();
  });

  it('saves them as typed, answers them in the edit and the list, and audits the change', async () => {
    const smith = await investor('Carol Smith');
    expect((await listed(smith.email))?.identifiers).toEqual([]);
    const user = await saved(smith.id, [' Smith Family Trust dtd 3/1/2001 ', 'XXX-XX-1234']);
    expect(user.identifiers).toEqual(['Smith Family Trust dtd 3/1/2001', 'XXX-XX-1234']);
    expect((await listed(smith.email))?.identifiers).toEqual(['Smith Family Trust dtd 3/1/2001', 'XXX-XX-1234']);

    const rows = await em().find(AuditEvent, { action: 'edit-user' });
    const row = rows.find((r) => (r.details?.subject as { id?: number } | undefined)?.id === smith.id);
    expect(row?.details).toMatchObject({
      before: { identifiers: [] },
      after: { identifiers: ['Smith Family Trust dtd 3/1/2001', 'XXX-XX-1234'] },
    });
  });

  it('refuses one another account has, however it is typed, naming that account', async () => {
    const first = await investor('Ada First');
    const second = await investor('Bea Second');
    await saved(first.id, ['Hollis Family Trust.']);
    const res = await identify(second.id, ['hollis family trust']);
    expect(res.status).toBe(409);
    expect(refusal(res)).toBe(contentMatchingMessages.identifierTaken('hollis family trust', [first.email]));
    expect((await listed(second.email))?.identifiers).toEqual([]);
  });

  it("refuses another investor's full name or entity as an added identifier", async () => {
    const gray = await investor('Walter Gray', 'Gray Holdings, LLC');
    const other = await investor('Olive Other');
    const byName = await identify(other.id, ['WALTER GRAY']);
    expect(byName.status).toBe(409);
    expect(refusal(byName)).toContain(gray.email);
    const byEntity = await identify(other.id, ['gray holdings llc']);
    expect(byEntity.status).toBe(409);
    expect(refusal(byEntity)).toContain(gray.email);
  });

  it('treats a masked last-4 and its four digits as the same identifier', async () => {
    const masked = await investor('Mona Masked');
    const bare = await investor('Bart Bare');
    await saved(masked.id, ['XXX-XX-4711']);
    const res = await identify(bare.id, ['4711']);
    expect(res.status).toBe(409);
    expect(refusal(res)).toBe(contentMatchingMessages.identifierTaken('4711', [masked.email]));
  });

  it('replaces the list: those left out are removed and free for another account', async () => {
    const owner = await investor('Rita Replace');
    const taker = await investor('Tom Taker');
    await saved(owner.id, ['Alder Trust', 'Birch Trust']);
    expect((await saved(owner.id, ['birch trust', 'Cedar Trust'])).identifiers).toEqual(['birch trust', 'Cedar Trust']);
    expect((await listed(owner.email))?.identifiers).toEqual(['birch trust', 'Cedar Trust']);
    expect((await saved(taker.id, ['Alder Trust'])).identifiers).toEqual(['Alder Trust']);
    expect((await saved(owner.id, [])).identifiers).toEqual([]);
    expect(await em().count(InvestorIdentifier, { user: owner.id })).toBe(0);
    // Another field's edit leaves them as they are.
    expect((await post('edit-user', { userId: taker.id, city: 'Pasadena' })).status).toBe(200);
    expect((await listed(taker.email))?.identifiers).toEqual(['Alder Trust']);
  });

  it('keeps two that normalize alike once, and refuses a list without words or too long', async () => {
    const user = await investor('Dora Double');
    expect((await saved(user.id, ['Dune Trust', 'DUNE TRUST.'])).identifiers).toEqual(['Dune Trust']);
    const wordless = await identify(user.id, ['--']);
    expect(wordless.status).toBe(400);
    expect((await identify(user.id, Array.from({ length: 21 }, (_, i) => `Trust ${i}`))).status).toBe(400);
  });

  it('refuses, by the unique index, one that another save gave away after the check read it', async () => {
    const first = await investor('Lena Left');
    const second = await investor('Rory Right');
    // The first save's row is written but not committed when the second save checks, so only the
    // unique index can refuse the second, once the first commits.
    let edit: Promise<Answer> | undefined;
    await em().transactional(async (tx) => {
      await tx.execute(
        `insert into investor_identifiers (user_id, identifier, normalized, created_at) values (?, 'Juniper Partners', 'juniper partners', now())`,
        [first.id],
      );
      edit = identify(second.id, ['Juniper Partners']);
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    const res = await edit!;
    expect(res.status, res.text).toBe(409);
    expect(refusal(res)).toBe(contentMatchingMessages.identifierTaken('Juniper Partners', [first.email]));
  });

  it('refuses a non-administrator and saves nothing', async () => {
    const target = await investor('Nina Nonadmin');
    const token = await client.signIn('investor@example.com');
    const refused = await post('edit-user', { userId: target.id, identifiers: ['Quince Trust'] }, token);
    expect(refused.status).toBe(403);
    expect(await em().count(InvestorIdentifier, { user: target.id })).toBe(0);
  });

  it('goes with the account when it is deleted', async () => {
    const gone = await investor('Gil Gone');
    const next = await investor('Nell Next');
    await saved(gone.id, ['Willow Trust']);
    expect((await post('delete-user', { userId: gone.id })).status).toBe(200);
    expect((await saved(next.id, ['Willow Trust'])).identifiers).toEqual(['Willow Trust']);
  });
});
