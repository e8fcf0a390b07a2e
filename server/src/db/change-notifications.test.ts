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

  const propertyDocuments = async (token: string) => {
    const res = await server.api('/api/investor/documents', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return investorDocumentsAnswer.parse(await res.json()).documents.filter((d) => d.documentType === 'property');
  };
  const sql = <T>(query: string, params: unknown[] = []) => server.services.orm.em.fork().getConnection().execute<T[]>(query, params);

  it("shows a property's new name in the document lists as soon as it is committed", async () => {
    const investor = await signIn('investor2@example.com');
    const [document] = (await propertyDocuments(investor)).filter((d) => d.property !== 'General');
    if (!document) throw new Error('the demo investor has no property document');
    const [property] = await sql<{ id: number }>('select property_id as id from property_documents where id = ?', [document.id]);

    // Kept in memory twice over now: the investor's list, and the property's documents as lists write them.
    expect(server.services.propertyDocuments.ready(String(property?.id))).toBeDefined();
    await sql(`update properties set name = name || ' (renamed)' where id = ?`, [property?.id]);
    await expect
      .poll(async () => (await propertyDocuments(investor)).find((d) => d.id === document.id)?.property)
      .toBe(`${document.property} (renamed)`);
  });

  it("a first read changes the reader's list, and keeps the property's documents as lists write them", async () => {
    const investor = await signIn('investor2@example.com');
    const [document] = (await propertyDocuments(investor)).filter((d) => d.property !== 'General' && !d.opened);
    if (!document) throw new Error('the demo investor has no unread property document');
    const [property] = await sql<{ id: number }>('select property_id as id from property_documents where id = ?', [document.id]);
    const kept = server.services.propertyDocuments.ready(String(property?.id));
    expect(kept).toBeDefined();

    const res = await server.api(`/api/investor/download/${document.id}?type=property`, { headers: { authorization: `Bearer ${investor}` } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await expect.poll(async () => (await propertyDocuments(investor)).find((d) => d.id === document.id)?.opened).toBe(true);
    // The same entries, not read again: a badge is the reader's, not the document's.
    expect(server.services.propertyDocuments.ready(String(property?.id))).toBe(kept);
  });

  it('drops the document lists when it drops the property documents they are made of', async () => {
    const investor = await signIn('investor2@example.com');
    const [user] = await sql<{ id: number }>(`select id from users where email = 'investor2@example.com'`);
    await propertyDocuments(investor);
    expect(server.services.documentLists.ready(`user:${user?.id}`)).toBeDefined();
    await sql(`select pg_notify('property_documents_changed', '')`);
    await expect.poll(() => server.services.documentLists.ready(`user:${user?.id}`)).toBeUndefined();
  });
});
