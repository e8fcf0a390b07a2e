import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUsersAnswer, createUserAnswer, type AdminUsersAnswer, type CreateUserAnswer } from '@everest/core/contract';
import { contentMatchingMessages } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient, type Answer } from '../../../test/test-client';
import { userSearchSql } from './admin-users.service';
import { User } from './user.entity';

describe('added identifiers in the user list, and names that are another account’s identifier', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let admin = '';
  const em = () => server.services.orm.em.fork();
  const post = (path: string, body: object, token = admin) => client.call(`/api/admin/${path}`, { token, body });
  const refusal = (res: Answer) => (res.json as { error?: string } | null)?.error;
  let counter = 0;
  const address = () => `holder.${(counter += 1)}@identifiers-list.example.com`;

  async function investor(name: string, identifiers: string[] = [], entity = ''): Promise<CreateUserAnswer['user']> {
    const res = await post('create-user', { name, entity, email: address() });
    expect(res.status, res.text).toBe(200);
    const user = createUserAnswer.parse(res.json).user;
    if (identifiers.length > 0) expect((await post('edit-user', { userId: user.id, identifiers })).status).toBe(200);
    return user;
  }
  async function search(text: string, paged = true): Promise<AdminUsersAnswer> {
    const res = await client.call(`/api/admin/users?search=${encodeURIComponent(text)}${paged ? '&page=1' : ''}`, { token: admin });
    expect(res.status, res.text).toBe(200);
    return adminUsersAnswer.parse(res.json);
  }
  const emailsOf = (answer: AdminUsersAnswer) => answer.users.map((u) => u.email);

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    admin = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    await server.close();
  });

  describe('the search', () => {
    it('finds an investor by an added identifier, as typed or normalized, paged or not, and counts them', async () => {
      const trust = await investor('Mara Quist', ['Quist Family Trust, dtd 3/1/2001', 'XXX-XX-8642']);
      for (const text of ['quist family trust, dtd', 'Quist Family Trust dtd 3 1 2001', 'XXX-XX-8642', '8642']) {
        const answer = await search(text);
        expect(emailsOf(answer), text).toEqual([trust.email]);
        expect(answer.totalCount, text).toBe(1);
        // Two characters take the path without the trigram index, every match without a page the third.
        expect(emailsOf(await search(text, false)), text).toEqual([trust.email]);
      }
      expect(emailsOf(await search('86'))).toContain(trust.email);
      // Still found by name, and nobody by an identifier they do not have.
      expect(emailsOf(await search('mara quist'))).toEqual([trust.email]);
      expect(emailsOf(await search('XXX-XX-8643'))).toEqual([]);
    });

    it('still reads the trigram index for the name, entity and e-mail half', async () => {
      const plan = await em().transactional(async (tx) => {
        await tx.execute('set local enable_seqscan = off; set local enable_indexscan = off');
        const rows = await tx.execute<{ 'QUERY PLAN': string }[]>(`explain select id from users where ${userSearchSql}`, ['%quist%', '%quist%', '%quist%']);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('users_search_text_index');
    });
  });

  describe("a name or entity that is another account's added identifier", () => {
    it('refuses edit-user a new name, or a new entity, with the sentence naming the account, and saves nothing', async () => {
      const holder = await investor('Nils Orr', ['Orr Vineyard Partners']);
      const other = await investor('Pat Ruiz');
      const byEntity = await post('edit-user', { userId: other.id, entity: 'ORR VINEYARD PARTNERS.' });
      expect(byEntity.status, byEntity.text).toBe(409);
      expect(refusal(byEntity)).toBe(contentMatchingMessages.identifierTaken('ORR VINEYARD PARTNERS.', [holder.email]));

      const named = await investor('Tess Ulm', ['Wren Abbott']);
      const byName = await post('edit-user', { userId: other.id, firstName: 'Wren', lastName: 'Abbott' });
      expect(byName.status, byName.text).toBe(409);
      expect(refusal(byName)).toBe(contentMatchingMessages.identifierTaken('Wren Abbott', [named.email]));
      const stored = await em().findOneOrFail(User, { id: other.id });
      expect([stored.firstName, stored.lastName, stored.entity]).toEqual(['Pat', 'Ruiz', '']);
    });

    it('refuses create-user such a name or entity, and creates nobody', async () => {
      const holder = await investor('Vera Wynn', ['Wynn Ranch LLC']);
      const email = address();
      const res = await post('create-user', { name: '', entity: 'Wynn Ranch, LLC', email });
      expect(res.status, res.text).toBe(409);
      expect(refusal(res)).toBe(contentMatchingMessages.identifierTaken('Wynn Ranch, LLC', [holder.email]));
      expect(await em().count(User, { email })).toBe(0);
    });

    it("allows another account's full name (two investors may share one), an unchanged name, and the account's own identifier", async () => {
      const first = await investor('Yuri Zane');
      expect((await post('create-user', { name: 'Yuri Zane', email: address() })).status).toBe(200);
      const own = await investor('Abe Bly', ['Bly Trust']);
      expect((await post('edit-user', { userId: own.id, entity: 'Bly Trust' })).status).toBe(200);
      // A name saved before another account took it as an identifier does not block other edits.
      await investor('Cy Dorn', ['Yuri Zane II']);
      expect((await post('edit-user', { userId: first.id, firstName: 'Yuri', lastName: 'Zane', city: 'Pasadena' })).status).toBe(200);
    });
  });

  describe('who sees them', () => {
    it('only administrators: the list refuses an employee, and no answer to an investor carries them', async () => {
      await investor('Dee Eames', ['XXX-XX-7531']);
      const employee = await client.signIn('employee@example.com');
      expect((await client.call('/api/admin/users?page=1', { token: employee })).status).toBe(403);
      const investorToken = await client.signIn('investor@example.com');
      const profile = await client.call('/api/investor/profile', { token: investorToken });
      expect(profile.status).toBe(200);
      expect(profile.text).not.toContain('identifiers');
      expect(profile.text).not.toContain('7531');
    });
  });
});
