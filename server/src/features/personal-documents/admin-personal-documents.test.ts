import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPersonalDocumentsAnswer,
  investorDocumentsAnswer,
  messageAnswer,
  personalDocumentAnswer,
  type PersonalDocument as PersonalDocumentAnswer,
} from '@everest/core/contract';
import { periodAt, portalMessages } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { recordingClient } from '../../../test/test-client';
import { documentFileMessages } from '../files/document-type';
import { plainZip, sampleDocx, samplePdf } from '../../../test/sample-documents';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { PersonalDocument } from './personal-document.entity';
import { storedFiles as storedFilesOf } from '../../../test/stored-files';

const admin = 'admin@example.com';
const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';

describe('personal documents administration', () => {
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
  const post = (route: string, body: unknown) => client.call(route, { body, token: token() });
  const lastOutboxId = async () => (await em().findOne(OutboxMessage, { id: { $gt: 0 } }, { orderBy: { id: 'desc' } }))?.id ?? 0;
  const mailsAfter = (id: number) => em().find(OutboxMessage, { id: { $gt: id } }, { orderBy: { id: 'asc' } });
  const storedFiles = () => storedFilesOf(server.services.files);

  async function sendForm(fields: Record<string, string>, file?: { bytes: Buffer; name: string }) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    if (file) form.set('document', new Blob([new Uint8Array(file.bytes)]), file.name);
    const res = await server.api('/api/admin/upload-user-document', {
      method: 'POST',
      headers: { authorization: `Bearer ${token()}` },
      body: form,
    });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  }

  const fields = (changes: Record<string, string> = {}) => ({
    userEmail: investorA,
    documentCategory: 'tax',
    title: '2025 Schedule K-1',
    emailNotification: 'false',
    ...changes,
  });

  async function upload(changes: Record<string, string>, bytes: Buffer, name = 'k1.pdf') {
    const res = await sendForm(fields(changes), { bytes, name });
    expect(res.status, res.text).toBe(200);
    return personalDocumentAnswer.parse(res.json);
  }

  async function portalList(email: string) {
    const res = await client.call('/api/investor/documents', { token: token(email) });
    expect(res.status, res.text).toBe(200);
    return investorDocumentsAnswer.parse(res.json).documents.filter((d) => d.documentType === 'personal');
  }

  const download = (email: string, id: number) =>
    server.api(`/api/investor/download/${id}?type=user`, { headers: { authorization: `Bearer ${token(email)}` } });

  async function adminList(query: string) {
    const res = await client.call(`/api/admin/user-documents${query}`, { token: token() });
    expect(res.status, res.text).toBe(200);
    return adminPersonalDocumentsAnswer.parse(res.json);
  }

  describe('upload-user-document', () => {
    it("publishes to its owner alone, at once, with the same bytes, filed by its document date", async () => {
      const beforeA = await portalList(investorA);
      await portalList(investorB);
      const bytes = samplePdf('k1-for-a');
      const { document, alreadyPublished } = await upload(
        { documentDate: '2025-02-14', tags: 'k1, 2025', description: 'For the 2025 return' },
        bytes,
        'K-1 2025.pdf',
      );
      expect(alreadyPublished).toBe(false);
      expect(document).toMatchObject({
        title: '2025 Schedule K-1',
        documentCategory: 'tax',
        userEmail: investorA,
        documentDate: '2025-02-14',
        tags: 'k1, 2025',
        description: 'For the 2025 return',
        year: 2025,
        quarter: 'Q1',
        filename: 'K-1 2025.pdf',
        fileSize: bytes.length,
        fileExists: true,
      });
      const afterA = await portalList(investorA);
      expect(afterA).toHaveLength(beforeA.length + 1);
      expect(afterA.find((d) => d.id === document.id)).toEqual({ ...document, opened: false });
      const res = await download(investorA, document.id);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      expect((await portalList(investorB)).map((d) => d.id)).not.toContain(document.id);
      expect((await download(investorB, document.id)).status).toBe(404);
    });

    it('files a document without a date under the upload date in Pasadena, and finds its owner in any letter case', async () => {
      const { document } = await upload({ userEmail: 'INVESTOR2@example.com', title: 'Subscription Agreement', documentCategory: 'legal' }, samplePdf('undated'));
      expect(document).toMatchObject({ userEmail: investorB, documentDate: null, ...periodAt(new Date()) });
    });

    it('e-mails the owner once, with a link to the portal, only when asked', async () => {
      const outbox = await lastOutboxId();
      await upload({ title: 'Quiet Upload' }, samplePdf('quiet'));
      expect(await mailsAfter(outbox)).toEqual([]);
      await upload({ title: 'Told Upload', emailNotification: 'true', documentCategory: 'financial' }, samplePdf('told'));
      const mails = await mailsAfter(outbox);
      expect(mails.map((m) => m.recipient)).toEqual([investorA]);
      expect(mails[0]?.text).toContain('Told Upload');
      expect(mails[0]?.text).toContain('Financial Documents');
      expect(mails[0]?.text).toContain(`${server.services.config.publicUrl}/investor-services`);
      expect(mails[0]?.text).not.toContain('/api/investor/download');
    });

    it('tells a deactivated owner nothing, though the document is published', async () => {
      await em().getConnection().execute('update users set is_active = false where email = ?', ['priya.natarajan@example.com']);
      const outbox = await lastOutboxId();
      const { document } = await upload({ userEmail: 'priya.natarajan@example.com', emailNotification: 'true' }, samplePdf('inactive-owner'));
      expect(document.userEmail).toBe('priya.natarajan@example.com');
      expect(await mailsAfter(outbox)).toEqual([]);
    });

    it('does not publish the same content twice for the same investor, and says so', async () => {
      const bytes = sampleDocx('same content');
      const outbox = await lastOutboxId();
      const first = await upload({ title: 'Operating Agreement', documentCategory: 'legal', emailNotification: 'true' }, bytes, 'agreement.docx');
      const rows = await em().count(PersonalDocument);
      const audits = await em().count(AuditEvent, { action: 'upload-user-document' });
      const second = await upload({ title: 'Operating Agreement (again)', emailNotification: 'true' }, bytes, 'agreement-copy.docx');
      expect(second.alreadyPublished).toBe(true);
      expect(second.document).toEqual(first.document);
      expect(second.message).toMatch(/^This file was already published for investor@example\.com as "Operating Agreement" on .+\. Nothing new was published\.$/);
      expect(await em().count(PersonalDocument)).toBe(rows);
      expect(await em().count(AuditEvent, { action: 'upload-user-document' })).toBe(audits);
      expect((await mailsAfter(outbox)).map((m) => m.recipient)).toEqual([investorA]);
      // Another investor may be sent the same file: it is theirs to read too.
      const forB = await upload({ userEmail: investorB, title: 'Operating Agreement' }, bytes, 'agreement.docx');
      expect(forB.alreadyPublished).toBe(false);
      expect(forB.document.id).not.toBe(first.document.id);
    });

    it('publishes once when the same file is sent twice at the same moment (a double click)', async () => {
      const bytes = samplePdf('double-click');
      const rows = await em().count(PersonalDocument);
      const answers = await Promise.all([
        sendForm(fields({ title: 'Double Click' }), { bytes, name: 'dc.pdf' }),
        sendForm(fields({ title: 'Double Click' }), { bytes, name: 'dc.pdf' }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const parsed = answers.map((a) => personalDocumentAnswer.parse(a.json));
      expect(parsed.map((a) => a.alreadyPublished).sort()).toEqual([false, true]);
      expect(parsed[0]?.document.id).toBe(parsed[1]?.document.id);
      expect(await em().count(PersonalDocument)).toBe(rows + 1);
    });

    it('refuses an unknown user with 404 before keeping the file, and a wrong type with 415', async () => {
      const files = await storedFiles();
      const unknown = await sendForm(fields({ userEmail: 'nobody@example.com' }), { bytes: samplePdf('nobody'), name: 'x.pdf' });
      expect(unknown.status).toBe(404);
      expect(unknown.json).toEqual({ error: 'User not found: no account uses the e-mail address nobody@example.com.' });
      const zip = await sendForm(fields(), { bytes: plainZip(), name: 'return.docx' });
      expect(zip.status).toBe(415);
      expect(zip.json).toEqual({ error: documentFileMessages.wrongType });
      const noFile = await sendForm(fields());
      expect(noFile.status).toBe(400);
      expect(await storedFiles()).toEqual(files);
    });

    it('refuses a category outside the list with a sentence', async () => {
      const res = await sendForm(fields({ documentCategory: 'secret' }), { bytes: samplePdf('bad-category'), name: 'x.pdf' });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'Please choose a document category.' });
    });

    it('audits the upload', async () => {
      const { document } = await upload({ title: 'Audited K-1' }, samplePdf('audited-k1'));
      const audit = await em().findOneOrFail(AuditEvent, { action: 'upload-user-document', documentId: document.id });
      expect(audit).toMatchObject({ documentType: 'personal' });
      expect(audit.details).toMatchObject({
        actorEmail: admin,
        subject: { type: 'user-document', id: document.id },
        after: { userEmail: investorA, title: 'Audited K-1', documentCategory: 'tax', filename: 'k1.pdf' },
      });
    });
  });

  describe('edit-user-document', () => {
    it("requires title and category: 'Please fill in both title and category.'", async () => {
      const { document } = await upload({ title: 'Needs Both' }, samplePdf('needs-both'));
      for (const body of [
        { documentId: document.id, title: '', documentCategory: 'tax' },
        { documentId: document.id, title: 'Title', documentCategory: '' },
        { documentId: document.id, title: 'Title' },
      ]) {
        const res = await post('/api/admin/edit-user-document', body);
        expect(res.status).toBe(400);
        expect(res.json).toEqual({ error: portalMessages.fillTitleAndCategory });
      }
    });

    it("saves the modal's fields, refiles by a new date, the owner's portal follows, and the audit holds what changed", async () => {
      const { document } = await upload({ title: 'Before Edit', documentDate: '2024-05-01' }, samplePdf('edit-me'));
      await portalList(investorA);
      const res = await post('/api/admin/edit-user-document', {
        documentId: document.id,
        title: 'After Edit',
        documentCategory: 'financial',
        documentDate: '2024-11-30',
        tags: 'statement',
      });
      expect(res.status, res.text).toBe(200);
      const edited = personalDocumentAnswer.parse(res.json).document;
      expect(edited).toMatchObject({ title: 'After Edit', documentCategory: 'financial', documentDate: '2024-11-30', tags: 'statement', year: 2024, quarter: 'Q4' });
      expect((await portalList(investorA)).find((d) => d.id === document.id)).toEqual({ ...edited, opened: false });
      const audit = await em().findOneOrFail(AuditEvent, { action: 'edit-user-document', documentId: document.id });
      expect(audit.details).toMatchObject({
        before: { title: 'Before Edit', documentCategory: 'tax', documentDate: '2024-05-01', tags: '', quarter: 'Q2' },
        after: { title: 'After Edit', documentCategory: 'financial', documentDate: '2024-11-30', tags: 'statement', quarter: 'Q4' },
      });
      expect(Object.keys((audit.details as { after: object }).after).sort()).toEqual(['documentCategory', 'documentDate', 'quarter', 'tags', 'title']);
    });

    it('answers 404 for a document that does not exist', async () => {
      const res = await post('/api/admin/edit-user-document', { documentId: 999999, title: 'X', documentCategory: 'tax' });
      expect(res.status).toBe(404);
    });
  });

  describe('delete-user-document', () => {
    it("removes it from the owner's portal at once, and audits it", async () => {
      const { document } = await upload({ title: 'Delete Me' }, samplePdf('delete-me'));
      expect((await portalList(investorA)).map((d) => d.id)).toContain(document.id);
      const res = await post('/api/admin/delete-user-document', { documentId: document.id });
      expect(res.status, res.text).toBe(200);
      expect(messageAnswer.parse(res.json).message).toBe('Document "Delete Me" deleted.');
      expect((await portalList(investorA)).map((d) => d.id)).not.toContain(document.id);
      expect((await download(investorA, document.id)).status).toBe(404);
      const audit = await em().findOneOrFail(AuditEvent, { action: 'delete-user-document', documentId: document.id });
      expect(audit.details).toMatchObject({ before: { title: 'Delete Me', userEmail: investorA } });
      expect((await post('/api/admin/delete-user-document', { documentId: document.id })).status).toBe(404);
    });
  });

  describe('GET /api/admin/user-documents', () => {
    const titles = (documents: PersonalDocumentAnswer[]) => documents.map((d) => d.title);

    it('pages by 10, newest first, counting every document', async () => {
      const total = await em().count(PersonalDocument);
      const first = await adminList('?page=1&limit=10');
      expect(first.totalCount).toBe(total);
      expect(first.documents).toHaveLength(Math.min(10, total));
      const second = await adminList('?page=2&limit=10');
      expect(second.totalCount).toBe(total);
      const ids = [...first.documents, ...second.documents].map((d) => d.id);
      expect(new Set(ids).size).toBe(ids.length);
      const stamps = first.documents.map((d) => d.uploadedAt);
      expect(stamps).toEqual([...stamps].sort().reverse());
      const past = await adminList(`?page=${Math.ceil(total / 10) + 1}&limit=10`);
      expect(past).toEqual({ documents: [], totalCount: total });
    });

    it("searches title, tags, and the owner's e-mail and name, in any case", async () => {
      await upload({ userEmail: investorB, title: 'Zephyr Distribution Notice', tags: 'quokka' }, samplePdf('search-1'));
      await upload({ userEmail: investorB, title: 'Zephyr Capital Call', tags: '' }, samplePdf('search-2'));
      const byTitle = await adminList('?page=1&limit=10&search=zephyr');
      expect(titles(byTitle.documents).sort()).toEqual(['Zephyr Capital Call', 'Zephyr Distribution Notice']);
      expect(byTitle.totalCount).toBe(2);
      expect(titles((await adminList('?page=1&limit=10&search=QUOKKA')).documents)).toEqual(['Zephyr Distribution Notice']);
      const byName = await adminList('?page=1&limit=50&search=sarah thompson');
      expect(byName.documents.length).toBeGreaterThanOrEqual(2);
      expect(byName.documents.every((d) => d.userEmail === investorB)).toBe(true);
      const byEmail = await adminList('?page=1&limit=50&search=investor2@');
      expect(byEmail.documents.every((d) => d.userEmail === investorB)).toBe(true);
      expect(byEmail.totalCount).toBe(byName.totalCount);
      const paged = await adminList('?page=2&limit=1&search=zephyr');
      expect(paged.documents).toHaveLength(1);
      expect(paged.totalCount).toBe(2);
      expect((await adminList('?search=100%25')).totalCount).toBe(0);
    });
  });
});
