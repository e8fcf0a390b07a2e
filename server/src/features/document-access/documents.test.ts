import { readFileSync } from 'node:fs';
import { demoPassword, demoUsers, fixtureFile, personalDocuments, propertyDocuments } from '@everest/fixtures';
import { investorDocumentsAnswer, type InvestorDocument } from '@everest/core/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { removeStoredFile } from '../../../test/stored-files';

const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';

describe('investor documents', () => {
  let server: TestServer;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    for (const email of [investorA, investorB, 'admin@example.com', 'employee@example.com']) {
      const res = await server.api('/api/investor/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: demoPassword }),
      });
      expect(res.status).toBe(200);
      const { token } = (await res.json()) as { token: string };
      tokens.set(email, token);
    }
  });
  afterAll(() => server.close());

  const as = (email: string) => ({ authorization: `Bearer ${tokens.get(email)}` });
  const list = async (email: string): Promise<InvestorDocument[]> => {
    const res = await server.api('/api/investor/documents', { headers: as(email) });
    expect(res.status).toBe(200);
    return investorDocumentsAnswer.parse(await res.json()).documents;
  };
  const expectedFor = (email: string) => {
    const access = new Set(demoUsers.find((u) => u.email === email)?.propertyAccess);
    return {
      property: propertyDocuments.filter((d) => d.property === 'General' || access.has(d.property)).map((d) => `${d.property}|${d.title}`).sort(),
      personal: personalDocuments.filter((d) => d.userEmail === email).map((d) => d.title).sort(),
    };
  };
  const summary = (documents: InvestorDocument[]) => ({
    property: documents.flatMap((d) => (d.documentType === 'property' ? [`${d.property}|${d.title}`] : [])).sort(),
    personal: documents.flatMap((d) => (d.documentType === 'personal' ? [d.title] : [])).sort(),
  });

  it.each([investorA, investorB, 'employee@example.com'])(
    'lists for %s exactly the documents of their properties, the General group and their own',
    async (email) => {
      const documents = await list(email);
      expect(summary(documents)).toEqual(expectedFor(email));
      expect(documents.every((d) => d.fileExists && d.fileSize > 0)).toBe(true);
    },
  );

  it("lists every property document for an administrator, but only the administrator's own personal documents", async () => {
    const documents = await list('admin@example.com');
    expect(documents.filter((d) => d.documentType === 'property')).toHaveLength(propertyDocuments.length);
    expect(personalDocuments.length).toBeGreaterThan(0);
    expect(summary(documents).personal).toEqual(expectedFor('admin@example.com').personal);
  });

  it('refuses the list without a session', async () => {
    expect((await server.api('/api/investor/documents')).status).toBe(401);
  });

  it("refuses investor A every document of investor B's, whatever id is guessed and with or without type=user", async () => {
    const ownA = new Set((await list(investorA)).map((d) => `${d.documentType}:${d.id}`));
    const connection = server.services.orm.em.fork().getConnection();
    const [row] = await connection.execute<{ max: number }[]>(
      'select greatest((select max(id) from property_documents), (select max(id) from user_documents)) as max',
    );
    const maxId = (row?.max ?? 0) + 3;
    for (let id = 1; id <= maxId; id++) {
      for (const type of ['user', 'property', undefined]) {
        const kind = type === 'user' ? 'personal' : 'property';
        const res = await server.api(`/api/investor/download/${id}${type ? `?type=${type}` : ''}`, { headers: as(investorA) });
        if (ownA.has(`${kind}:${id}`)) {
          expect(res.status).toBe(200);
          await res.body?.cancel();
        } else {
          expect(res.status).toBe(404);
          expect(await res.json()).toEqual({ error: 'This document does not exist or is not available to you.' });
        }
      }
    }
  });

  it('accepts the session token in the query, as the header', async () => {
    const [doc] = (await list(investorA)).filter((d) => d.documentType === 'personal');
    const res = await server.api(`/api/investor/download/${doc?.id}?type=user&token=${tokens.get(investorA)}`);
    expect(res.status).toBe(200);
    expect((await server.api(`/api/investor/download/${doc?.id}?type=user&token=forged`)).status).toBe(401);
  });

  it('streams the stored bytes with a safe name, no caching, and an inline answer for the preview', async () => {
    const [doc] = (await list(investorA)).filter((d) => d.documentType === 'personal');
    const fixture = personalDocuments.find((d) => d.title === doc?.title && d.userEmail === investorA);
    const expected = readFileSync(fixtureFile(fixture?.file ?? ''));
    const res = await server.api(`/api/investor/download/${doc?.id}?type=user`, { headers: as(investorA) });
    expect(Buffer.from(await res.arrayBuffer())).toEqual(expected);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(expected.length));
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${doc?.filename}"; filename*=UTF-8''${doc?.filename}`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');

    const preview = await server.api(`/api/investor/download/${doc?.id}?type=user&preview=1`, { headers: as(investorA) });
    expect(preview.headers.get('content-disposition')).toMatch(/^inline; /);
    await preview.body?.cancel();
  });

  it('answers a byte range with 206 and exactly those bytes, and an impossible one with 416', async () => {
    const [doc] = (await list(investorA)).filter((d) => d.documentType === 'property');
    const whole = Buffer.from(await (await server.api(`/api/investor/download/${doc?.id}`, { headers: as(investorA) })).arrayBuffer());
    const part = await server.api(`/api/investor/download/${doc?.id}`, { headers: { ...as(investorA), range: 'bytes=10-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-99/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(10, 100));

    const tail = await server.api(`/api/investor/download/${doc?.id}`, { headers: { ...as(investorA), range: 'bytes=-16' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 16));

    const beyond = await server.api(`/api/investor/download/${doc?.id}`, { headers: { ...as(investorA), range: `bytes=${whole.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
  });

  it('records each preview and download with the user, the document and the client address', async () => {
    const [doc] = (await list(investorB)).filter((d) => d.documentType === 'personal');
    const em = server.services.orm.em.fork();
    const before = await em.count(AuditEvent, { documentId: doc?.id, documentType: 'personal' });
    await (await server.api(`/api/investor/download/${doc?.id}?type=user&preview=1`, { headers: as(investorB) })).arrayBuffer();
    await (await server.api(`/api/investor/download/${doc?.id}?type=user`, { headers: as(investorB) })).arrayBuffer();
    const events = await em.find(AuditEvent, { documentId: doc?.id, documentType: 'personal' }, { orderBy: { id: 'asc' }, populate: ['user'] });
    expect(events).toHaveLength(before + 2);
    expect(events.slice(-2).map((e) => e.action)).toEqual(['preview', 'download']);
    expect(events.at(-1)?.user?.email).toBe(investorB);
    expect(events.at(-1)?.clientAddress).toMatch(/127\.0\.0\.1/);
  });

  it('answers 410 for a document whose file is missing, and the list then says fileExists: false', async () => {
    const documents = await list(investorB);
    const doc = documents.find((d) => d.documentType === 'property' && d.property !== 'General');
    const rows = await server.services.orm.em.fork().getConnection().execute<{ sha256: string }[]>(
      'select f.sha256 from property_documents d join stored_files f on f.id = d.file_id where d.id = ?',
      [doc?.id],
    );
    await removeStoredFile(server.services.files, rows[0]?.sha256 ?? '');
    const res = await server.api(`/api/investor/download/${doc?.id}`, { headers: as(investorB) });
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({ error: 'The file of this document is missing. Please contact Investor Relations.' });
    const after = (await list(investorB)).find((d) => d.documentType === 'property' && d.id === doc?.id);
    expect(after?.fileExists).toBe(false);
  });
});
