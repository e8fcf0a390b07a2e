import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUsersAnswer, type AdminUsersAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { User } from './user.entity';
import { userListOrderSql } from './admin-users.service';

describe('the administrators’ user list', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let admin = '';
  let everyone = 0;

  async function list(query = ''): Promise<AdminUsersAnswer & { cacheControl: string | null }> {
    const res = await client.call(`/api/admin/users${query}`, { token: admin });
    expect(res.status, res.text).toBe(200);
    return { ...adminUsersAnswer.parse(res.json), cacheControl: res.headers.get('cache-control') };
  }

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    admin = await client.signIn('admin@example.com');
    // 25 Smiths of one family and an entity that sorts among them; wildcards in one address.
    await server.services.orm.em.fork().getConnection().execute(`
      insert into users (email, password_hash, first_name, last_name, entity, role, created_at, updated_at)
      select 'smith' || lpad(i::text, 2, '0') || '@example.com', 'not-a-hash', 'Kid' || lpad(i::text, 2, '0'), 'Smithson', '', 'user', now(), now()
        from generate_series(1, 25) i
      union all
      select 'percent_100%@example.com', 'not-a-hash', '', '', 'Smithfield Capital LLC', 'user', now(), now()`);
    everyone = await server.services.orm.em.fork().count(User, {});
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('answers every user without page, no-store, with totalCount their number, ordered by last name, first name and e-mail', async () => {
    const answer = await list();
    expect(answer.cacheControl).toBe('no-store');
    expect(answer.users).toHaveLength(everyone);
    expect(answer.totalCount).toBe(everyone);
    // The panel locks this row's e-mail and hides its Delete.
    expect(answer.builtInAdministratorEmail).toBe(server.services.config.adminEmail);
    const names = answer.users.map((u) => (u.lastName || u.firstName || u.entity).toLowerCase());
    expect(names).toEqual([...names].sort());
    // The entity without a name sorts by its entity, not before everyone.
    const smithfield = answer.users.findIndex((u) => u.entity === 'Smithfield Capital LLC');
    expect(answer.users[smithfield - 1]?.lastName).toBe('Smith');
    expect(answer.users[smithfield + 1]?.lastName).toBe('Smithson');
  });

  it('pages a search, counting every match on every page', async () => {
    const one = await list('?page=1&limit=10&search=smith');
    const two = await list('?page=2&limit=10&search=smith');
    const three = await list('?page=3&limit=10&search=smith');
    // The two John Smiths, the 25 Smithsons and Smithfield Capital.
    expect([one.totalCount, two.totalCount, three.totalCount]).toEqual([28, 28, 28]);
    expect([one.users.length, two.users.length, three.users.length]).toEqual([10, 10, 8]);
    const emails = [...one.users, ...two.users, ...three.users].map((u) => u.email);
    expect(new Set(emails).size).toBe(28);
    expect(emails.slice(0, 4)).toEqual(['john.smith@example.com', 'jsmith@example.com', 'percent_100%@example.com', 'smith01@example.com']);
    expect(one.cacheControl).toBe('no-store');
    // Past the last match there is no row to carry the count: it is counted on its own.
    expect(await list('?page=4&limit=10&search=smith')).toMatchObject({ users: [], totalCount: 28 });
    // Two characters are too few for the trigram index, and are searched all the same.
    const short = await list('?page=1&limit=10&search=SM');
    expect(short.totalCount).toBeGreaterThanOrEqual(28);
    expect(short.users.every((u) => `${u.firstName} ${u.lastName} ${u.entity} ${u.email}`.toLowerCase().includes('sm'))).toBe(true);
    // A page of 10 when only the page is given.
    expect((await list('?page=1')).users).toHaveLength(10);
  });

  it('searches full name, entity and e-mail without regard to case', async () => {
    const emailsOf = async (search: string) => (await list(`?page=1&limit=100&search=${encodeURIComponent(search)}`)).users.map((u) => u.email);
    expect(await emailsOf('JOHN SMITH')).toEqual(['john.smith@example.com', 'jsmith@example.com']);
    expect(await emailsOf('thompson family')).toEqual(['investor2@example.com']);
    expect(await emailsOf('Natarajan@Example')).toEqual(['priya.natarajan@example.com']);
    expect(await emailsOf('kid07')).toEqual(['smith07@example.com']);
    expect(await emailsOf('no such person')).toEqual([]);
  });

  it('searches % and _ as themselves, not as wildcards', async () => {
    expect((await list('?page=1&search=%25')).users.map((u) => u.email)).toEqual(['percent_100%@example.com']);
    expect((await list('?page=1&search=t_1')).users.map((u) => u.email)).toEqual(['percent_100%@example.com']);
    expect((await list('?page=1&search=p%25t')).totalCount).toBe(0);
  });

  it('refuses a bad page or limit with 400 and a sentence', async () => {
    for (const query of ['?page=0', '?page=x', '?limit=1000']) {
      const res = await client.call(`/api/admin/users${query}`, { token: admin });
      expect(res.status, query).toBe(400);
      expect(res.json).toEqual({ error: expect.stringMatching(/^(Page|Limit) must/) });
    }
  });

  it('serves a search from the trigram index and a page from the order index', async () => {
    const em = server.services.orm.em.fork();
    // So few rows that PostgreSQL would rather scan them: forbid that, to see which index it can use.
    const plans = await em.transactional(async (tx) => {
      await tx.execute('set local enable_seqscan = off');
      const search = await tx.execute<{ 'QUERY PLAN': string }[]>(`explain select id from users where search_text like '%smith%'`);
      const page = await tx.execute<{ 'QUERY PLAN': string }[]>(`explain select id from users order by ${userListOrderSql} limit 10`);
      return [search, page].map((rows) => rows.map((r) => r['QUERY PLAN']).join('\n'));
    });
    expect(plans[0]).toContain('users_search_text_index');
    expect(plans[1]).toContain('users_admin_order_index');
  });

  it('serves a repeated search from memory, which only a change announced by the database drops', async () => {
    const connection = server.services.orm.em.fork().getConnection();
    const name = async () => (await list('?page=1&limit=10&search=smith07')).users[0]?.firstName;
    expect(await name()).toBe('Kid07');
    // A write the triggers do not see (replica mode skips them) leaves the cached answer as it was.
    await connection.execute(
      `begin; set local session_replication_role = replica; update users set first_name = 'Unseen' where email = 'smith07@example.com'; commit;`,
    );
    expect(await name()).toBe('Kid07');
    // Any other write, as another instance would make it, announces the change: the list follows.
    await connection.execute(`update users set first_name = 'Seen' where email = 'smith07@example.com'`);
    await expect.poll(name).toBe('Seen');
  });

  it("shows a sign-in's last-login time at once", async () => {
    const lastLogin = async () => (await list('?page=1&limit=10&search=investor2@')).users[0]?.lastLoginAt ?? null;
    const before = await lastLogin();
    await client.signIn('investor2@example.com');
    const after = await lastLogin();
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
  });
});
