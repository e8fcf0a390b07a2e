import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAnswer, investorDocumentsAnswer, personalDocumentAnswer } from '@everest/core/contract';
import { currentYear, maxDocumentBytes } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { recordingClient } from '../../../test/test-client';
import { documentFileMessages } from '../files/document-type';
import { plainZip, samplePdf } from '../../../test/sample-documents';
import { tempFiles } from '../../../test/stored-files';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { adminPersonalDocumentMessages } from './admin-personal-documents.service';
import { PersonalDocument } from './personal-document.entity';

const admin = 'admin@example.com';
const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';

describe('POST /api/admin/replace-user-document/:documentId', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    for (const email of [admin, investorA, investorB]) tokens.set(email, await client.signIn(email));
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  const em = () => server.services.orm.em.fork();
  const token = (email = admin) => tokens.get(email) ?? '';

  async function sendFile(route: string, fields: Record<string, string>, bytes: Buffer, name: string) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    form.set('document', new Blob([new Uint8Array(bytes)]), name);
    const res = await server.api(route, { method: 'POST', headers: { authorization: `Bearer ${token()}` }, body: form });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  }

  async function publish(title: string, bytes: Buffer, userEmail = investorA) {
    const res = await sendFile(
      '/api/admin/upload-user-document',
      { userEmail, title, documentCategory: 'tax', emailNotification: 'false' },
      bytes,
      `${title}.pdf`,
    );
    expect(res.status, res.text).toBe(200);
    return personalDocumentAnswer.parse(res.json).document;
  }

  const replace = (id: number, bytes: Buffer, name = 'corrected.pdf') => sendFile(`/api/admin/replace-user-document/${id}`, {}, bytes, name);

  async function downloaded(email: string, id: number) {
    const res = await server.api(`/api/investor/download/${id}?type=user`, { headers: { authorization: `Bearer ${token(email)}` } });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  const fileIdOf = async (id: number) => (await em().findOneOrFail(PersonalDocument, id)).file.id;

  it('puts the new file under the document: the investor downloads it, the old file is only its version 1, no e-mail', async () => {
    const original = samplePdf('K-1 first draft');
    const document = await publish('Replaced K-1 2025', original);
    const oldFileId = await fileIdOf(document.id);
    const outbox = await em().count(OutboxMessage);

    const corrected = samplePdf('K-1 corrected');
    const res = await replace(document.id, corrected, 'K-1 corrected.pdf');
    expect(res.status, res.text).toBe(200);
    const answer = personalDocumentAnswer.parse(res.json);
    expect(answer.message).toBe('The file of "Replaced K-1 2025" was replaced.');
    expect(answer.document).toMatchObject({ id: document.id, title: 'Replaced K-1 2025', userEmail: investorA, filename: 'K-1 corrected.pdf', fileSize: corrected.length });

    const got = await downloaded(investorA, document.id);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(corrected)).toBe(true);
    // The investor's list shows the same document, once, with its new file.
    const list = await client.call('/api/investor/documents', { token: token(investorA) });
    const mine = investorDocumentsAnswer.parse(list.json).documents.filter((d) => d.documentType === 'personal' && d.title === 'Replaced K-1 2025');
    expect(mine).toMatchObject([{ id: document.id, filename: 'K-1 corrected.pdf' }]);
    expect(await em().count(PersonalDocument, { file: oldFileId })).toBe(0);
    expect(await em().count(OutboxMessage)).toBe(outbox);

    // The file existed, so this is a correction (issue 21): audited as such, version 2.
    expect(answer.corrected).toBe(true);
    expect(answer.document.version).toBe(2);
    const audit = await em().findOneOrFail(AuditEvent, { action: 'correct', documentId: document.id });
    expect(audit.details).toMatchObject({
      before: { version: 1, filename: 'Replaced K-1 2025.pdf' },
      after: { version: 2, filename: 'K-1 corrected.pdf', size: corrected.length },
    });
    // Still the owner's alone.
    expect((await downloaded(investorB, document.id)).status).toBe(404);
  });

  it('refuses a wrong type with 415 and a file over 10 MB with 413, keeping the old file', async () => {
    const original = samplePdf('kept');
    const document = await publish('Keeps Its K-1', original);
    const wrong = await replace(document.id, plainZip(), 'x.docx');
    expect(wrong.status, wrong.text).toBe(415);
    expect(wrong.json).toEqual({ error: documentFileMessages.wrongType });
    const big = await replace(document.id, Buffer.concat([samplePdf('big'), Buffer.alloc(maxDocumentBytes)]), 'big.pdf');
    expect(big.status, big.text).toBe(413);
    expect(big.json).toEqual({ error: documentFileMessages.tooLarge });
    expect((await downloaded(investorA, document.id)).bytes.equals(original)).toBe(true);
    expect(await tempFiles(server.services.files)).toEqual([]);
  });

  it('answers 404 for a document that does not exist, and for a property document', async () => {
    const missing = await replace(999_999, samplePdf('nothing'));
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: adminPersonalDocumentMessages.notFound });

    // A property document whose id no personal document has: it is not replaced through this route.
    const [row] = await em().execute<{ max: number }[]>('select coalesce(max(id), 0) as max from user_documents');
    const max = row?.max ?? 0;
    let propertyId = 0;
    for (let n = 0; propertyId <= max; n += 1) {
      const property = await sendFile(
        '/api/admin/upload-document',
        { title: `Not Personal ${n}`, property: 'General', year: String(currentYear()), quarter: 'Q1' },
        samplePdf(`not personal ${n}`),
        'not-personal.pdf',
      );
      expect(property.status, property.text).toBe(200);
      propertyId = documentAnswer.parse(property.json).document.id;
    }
    const res = await replace(propertyId, samplePdf('into property'));
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: adminPersonalDocumentMessages.notFound });
    expect(await tempFiles(server.services.files)).toEqual([]);
  });

  it("refuses with 409 the content of another of the owner's documents", async () => {
    const first = samplePdf('first of two');
    await publish('Owner Document One', first);
    const second = await publish('Owner Document Two', samplePdf('second of two'));
    const res = await replace(second.id, first);
    expect(res.status, res.text).toBe(409);
    expect(res.json).toEqual({ error: adminPersonalDocumentMessages.contentUsed(investorA, 'Owner Document One') });
    // The same content for another investor is theirs to have.
    const other = await publish('Other Owner Document', samplePdf('other owner'), investorB);
    const allowed = await replace(other.id, first);
    expect(allowed.status, allowed.text).toBe(200);
  });
});
