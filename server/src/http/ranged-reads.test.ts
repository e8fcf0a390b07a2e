import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { investorDocumentsAnswer, type InvestorDocument } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../test/harness';
import { freshAddress, recordingClient } from '../../test/test-client';

/**
 * Issue 33: `Range: bytes=1-` downloaded a whole K-1 but its first byte, and the document was
 * never counted as opened. Any read that serves the file's content counts, as a whole download
 * does; a viewer's further ranges right after a read do not count again.
 */
describe('ranged reads and read receipts', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let token = '';
  let userId = 0;

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true' } });
    client = recordingClient(server);
    token = await client.signIn('investor@example.com', undefined, freshAddress());
    userId = (await server.services.orm.em.fork().getConnection().execute<{ id: number }[]>(`select id from users where email = 'investor@example.com'`))[0]?.id ?? 0;
  });
  afterAll(async () => {
    await server.close();
  });

  const documents = async () => investorDocumentsAnswer.parse((await client.call('/api/investor/documents', { token })).json).documents;
  const addressOf = (doc: InvestorDocument) => `/api/investor/download/${doc.id}?type=${doc.documentType === 'personal' ? 'user' : 'property'}`;
  const opens = async (doc: InvestorDocument) => {
    const rows = await server.services.orm.em
      .fork()
      .getConnection()
      .execute<{ opens: number }[]>('select opens from document_reads where user_id = ? and document_type = ? and document_id = ?', [userId, doc.documentType, doc.id]);
    return rows[0]?.opens ?? 0;
  };
  const read = async (doc: InvestorDocument, range?: string) => {
    const res = await server.api(addressOf(doc), { headers: { authorization: `Bearer ${token}`, ...(range ? { range } : {}) } });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, bytes };
  };

  it('counts a document read from its second byte on as opened', async () => {
    const unread = (await documents()).filter((doc) => doc.documentType === 'personal' && doc.fileExists && !doc.opened);
    const doc = unread[0];
    if (!doc) throw new Error('the demo investor has an unread personal document');
    const part = await read(doc, 'bytes=1-');
    expect(part.status).toBe(206);
    expect(part.bytes.length).toBeGreaterThan(0);
    expect(await opens(doc)).toBe(1);
    // The list is cached and rebuilt on the read's notification, which arrives a moment after the
    // download answered: wait for the list the investor then sees.
    await expect.poll(async () => (await documents()).find((d) => d.id === doc.id && d.documentType === doc.documentType)?.opened).toBe(true);
  });

  it('counts a tail-only read, and not each of a viewer’s ranges right after a read', async () => {
    const [first, second] = (await documents()).filter((doc) => doc.documentType === 'property' && doc.fileExists && !doc.opened);
    if (!first || !second) throw new Error('the demo investor has two unread property documents');
    expect((await read(first, 'bytes=-100')).status).toBe(206);
    expect(await opens(first)).toBe(1);

    // A PDF viewer: the whole file is asked for, then chunks of it.
    expect((await read(second)).status).toBe(200);
    for (const range of ['bytes=0-99', 'bytes=100-199', 'bytes=200-']) expect((await read(second, range)).status).toBe(206);
    expect(await opens(second)).toBe(1);
  });
});
