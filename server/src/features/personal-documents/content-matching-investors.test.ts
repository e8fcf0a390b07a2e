import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentMatchingInvestorsAnswer, createUserAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';

describe('the investors content matching reads', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let admin = '';
  const path = '/api/admin/content-matching/investors';

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    admin = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    await server.close();
  });

  it("lists every investor with their name, entity and added identifiers, staff left out, deactivated marked", async () => {
    const made = await client.call('/api/admin/create-user', { token: admin, body: { name: 'Wren Okafor', entity: 'Okafor Trust', email: 'wren.okafor@example.com' } });
    const wren = createUserAnswer.parse(made.json).user;
    expect((await client.call('/api/admin/edit-user', { token: admin, body: { userId: wren.id, identifiers: ['Okafor Family Trust dtd 3/1/2001', 'XXX-XX-4321'], isActive: false } })).status).toBe(200);

    const res = await client.call(path, { token: admin });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { investors } = contentMatchingInvestorsAnswer.parse(res.json);
    expect(investors.find((i) => i.id === wren.id)).toEqual({
      id: wren.id,
      email: 'wren.okafor@example.com',
      name: 'Wren Okafor',
      entity: 'Okafor Trust',
      identifiers: ['Okafor Family Trust dtd 3/1/2001', 'XXX-XX-4321'],
      active: false,
    });
    const emails = investors.map((i) => i.email);
    expect(emails).toContain('investor@example.com');
    expect(emails).not.toContain('admin@example.com');
    expect(emails).not.toContain('employee@example.com');
    expect(investors.map((i) => i.id)).toEqual([...investors.map((i) => i.id)].sort((a, b) => a - b));
  });

  it('answers administrators only', async () => {
    expect((await client.call(path)).status).toBe(401);
    for (const email of ['investor@example.com', 'employee@example.com']) {
      expect((await client.call(path, { token: await client.signIn(email) })).status).toBe(403);
    }
  });
});
