import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAnswer, editUserAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { User } from './user.entity';

const password = 'Admin@Pass1';
const lastAdministrator = 'This would leave no active administrator. Make another user an administrator first.';

/**
 * Without a built-in administrator (ADMIN_EMAIL names nobody here), only the last-administrator
 * rule stands between the panel and nobody able to open it.
 */
describe('the last active administrator', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let first = '';
  let firstId = 0;
  const post = (path: string, body: object, token: string) => client.call(`/api/admin/${path}`, { token, body });
  const em = () => server.services.orm.em.fork();

  async function newAdministrator(email: string, by = first): Promise<{ id: number; token: string }> {
    const res = await post('create-user', { name: 'Another Admin', email, role: 'administrator', password }, by);
    expect(res.status, res.text).toBe(200);
    return { id: createUserAnswer.parse(res.json).user.id, token: await client.signIn(email, password) };
  }

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { ADMIN_EMAIL: 'nobody-built-in@example.com' } });
    client = recordingClient(server);
    first = await client.signIn('admin@example.com');
    firstId = (await em().findOneOrFail(User, { email: 'admin@example.com' })).id;
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('cannot demote or deactivate themself, with 409 and a sentence, and stays an administrator', async () => {
    for (const body of [{ role: 'user' }, { role: 'everest_employee' }, { isActive: false }]) {
      const res = await post('edit-user', { userId: firstId, ...body }, first);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.json).toEqual({ error: lastAdministrator });
    }
    expect(await em().findOneOrFail(User, { id: firstId })).toMatchObject({ role: 'administrator', isActive: true });
    expect((await client.call('/api/admin/users', { token: first })).status).toBe(200);
  });

  it('may step down once another administrator is active, and is told of the new role', async () => {
    const second = await newAdministrator('second.admin@example.com');
    const res = await post('edit-user', { userId: second.id, role: 'user' }, second.token);
    expect(res.status, res.text).toBe(200);
    const answer = editUserAnswer.parse(res.json);
    expect(answer.message).toBe('Your role has been changed to Investor');
    // The stepped-down session ends with its role; the caller goes on in a new one, an investor's.
    expect((await client.call('/api/admin/users', { token: second.token })).status).toBe(401);
    expect(answer.token).toEqual(expect.any(String));
    const profile = await client.call('/api/investor/profile', { token: answer.token });
    expect(profile.status).toBe(200);
    expect(profile.json).toMatchObject({ user: { email: 'second.admin@example.com', role: 'user' } });
    expect((await client.call('/api/admin/users', { token: answer.token })).status).toBe(403);
  });

  it('cannot deactivate themself after deactivating the only other active administrator', async () => {
    const second = await newAdministrator('third.admin@example.com');
    // The first administrator is deactivated by the second: one active administrator is left.
    expect((await post('edit-user', { userId: firstId, isActive: false }, second.token)).status).toBe(200);
    const res = await post('edit-user', { userId: second.id, isActive: false }, second.token);
    expect(res.status).toBe(409);
    expect(res.json).toEqual({ error: lastAdministrator });
    // Back as it was for the next test.
    expect((await post('edit-user', { userId: firstId, isActive: true }, second.token)).status).toBe(200);
    first = await client.signIn('admin@example.com', 'Everest@2025');
  });

  it('lets only one of two administrators demoting each other at the same moment succeed', async () => {
    // Leave one: the first administrator.
    const others = await em().find(User, { role: 'administrator', isActive: true, id: { $ne: firstId } });
    for (const other of others) expect((await post('edit-user', { userId: other.id, role: 'user' }, first)).status).toBe(200);
    let survivor = { id: firstId, token: first };
    // A race is won or lost by timing: several rounds, so that a missing lock shows.
    for (let round = 1; round <= 5; round += 1) {
      const rival = await newAdministrator(`rival.${round}@example.com`, survivor.token);
      const answers = await Promise.all([
        post('edit-user', { userId: rival.id, role: 'user' }, survivor.token),
        post('edit-user', { userId: survivor.id, role: 'user' }, rival.token),
      ]);
      // The loser is refused by the rule (409), or, arriving after the winner's commit, is
      // already signed out by its own demotion (401): never both through.
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((status) => status === 200), `round ${round}`).toHaveLength(1);
      expect(statuses.every((status) => [200, 401, 409].includes(status))).toBe(true);
      expect(await em().count(User, { role: 'administrator', isActive: true })).toBe(1);
      if (answers[1]?.status === 200) survivor = rival;
    }
  });
});
