import { demoPassword } from '@everest/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { investorDocumentsAnswer, loginAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../test/harness';

/** The change-notification triggers (migrations), seen through the caches they drop. */
describe('change notifications', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: true });
  });
  afterAll(() => server.close());

  const signIn = async (email: string) => {
    const res = await server.api('/api/investor/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: demoPassword }),
    });
    expect(res.status).toBe(200);
    return loginAnswer.parse(await res.json()).token;
  };
  const ownersOfPersonalDocuments = async (token: string, userId: number) => {
    const res = await server.api('/api/investor/documents', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const { documents } = investorDocumentsAnswer.parse(await res.json());
    return [
      ...new Set(documents.flatMap((d) => (d.documentType === 'personal' && d.assignedUserId === userId ? [d.userEmail] : []))),
    ];
  };

  it("shows a user's new e-mail in the document lists as soon as it is committed", async () => {
    const investor = await signIn('investor@example.com');
    const { id } = (await server.services.orm.em
      .fork()
      .getConnection()
      .execute<{ id: number }[]>(`select id from users where email = 'investor@example.com'`))[0] ?? { id: 0 };
    // Read once: the list is now kept in memory.
    expect(await ownersOfPersonalDocuments(investor, id)).toEqual(['investor@example.com']);

    // Whatever code path changes it; the lists are kept for a minute without a notification.
    await server.services.orm.em
      .fork()
      .getConnection()
      .execute(`update users set email = 'carter.new@example.com' where id = ?`, [id]);
    await expect.poll(() => ownersOfPersonalDocuments(investor, id)).toEqual(['carter.new@example.com']);
  });
});
