import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAnswer, personalDocumentAnswer } from '@everest/core/contract';
import { currentYear } from '@everest/core/domain';
import { demoUsers } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { recordingClient } from '../../../test/test-client';
import { samplePdf } from '../../../test/sample-documents';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { PropertyDocument } from './property-document.entity';
import { PersonalDocument } from '../personal-documents/personal-document.entity';

// Issue 32: a publication is its content AND its destination (a property, 'General' or an
// investor). The same content for the same destination is published once, however often and
// however simultaneously it is sent; the same content for another destination is another
// document; a replace can only ever touch the document of its own destination.

const admin = 'admin@example.com';
const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';
const heartland = 'Heartland Plaza';
const sunset = 'Sunset Terrace Apartments';
const readersOf = (property: string) =>
  demoUsers.filter((u) => u.role !== 'administrator' && u.propertyAccess.includes(property)).map((u) => u.email).sort();

describe('publishing identity: content and destination', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let token = '';

  beforeAll(async () => {
    expect(readersOf(heartland)).not.toEqual(readersOf(sunset));
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    token = await client.signIn(admin);
  });
  afterAll(async () => {
    await server.close();
  });

  const em = () => server.services.orm.em.fork();
  const lastOutboxId = async () => (await em().findOne(OutboxMessage, { id: { $gt: 0 } }, { orderBy: { id: 'desc' } }))?.id ?? 0;
  const mailsAfter = (id: number) => em().find(OutboxMessage, { id: { $gt: id } }, { orderBy: { id: 'asc' } });

  async function sendForm(route: string, fields: Record<string, string>, file: { bytes: Buffer; name: string }, headers: Record<string, string> = {}) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    form.set('document', new Blob([new Uint8Array(file.bytes)]), file.name);
    const res = await server.api(route, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers }, body: form });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  }

  const propertyFields = (changes: Record<string, string> = {}) => ({
    title: 'Capital Call Notice',
    property: heartland,
    year: String(currentYear()),
    quarter: 'Q3',
    emailNotification: 'true',
    ...changes,
  });

  async function uploadProperty(changes: Record<string, string>, bytes: Buffer, headers: Record<string, string> = {}) {
    const res = await sendForm('/api/admin/upload-document', propertyFields(changes), { bytes, name: 'Capital Call Notice.pdf' }, headers);
    expect(res.status, res.text).toBe(200);
    return documentAnswer.parse(res.json);
  }

  const documentsOf = (sha: Buffer) =>
    em()
      .getConnection()
      .execute<{ id: number; property: string | null }[]>(
        `select d.id, p.name as property from property_documents d join stored_files f on f.id = d.file_id
           left join properties p on p.id = d.property_id
          where f.sha256 = encode(sha256(?::bytea), 'hex') order by d.id`,
        [sha],
      );

  describe('case 3: a property document is published once', () => {
    it('answers alreadyPublished with the existing document for the same content and property, whatever its title or period, and publishes and e-mails nothing', async () => {
      const bytes = samplePdf('case-3-again');
      const first = await uploadProperty({}, bytes);
      expect(first.alreadyPublished ?? false).toBe(false);
      const documents = await em().count(PropertyDocument);
      const audits = await em().count(AuditEvent, { action: 'upload-document' });
      const outbox = await lastOutboxId();

      const again = await uploadProperty({ title: 'Capital Call Notice (resent)', year: String(currentYear() - 1), quarter: 'Q1' }, bytes);
      expect(again.alreadyPublished).toBe(true);
      expect(again.document).toEqual(first.document);
      expect(again.message).toBe(
        `This file was already published for ${heartland} as "Capital Call Notice" (Q3 ${currentYear()}). Nothing new was published and nobody was e-mailed.`,
      );
      expect(await em().count(PropertyDocument)).toBe(documents);
      expect(await em().count(AuditEvent, { action: 'upload-document' })).toBe(audits);
      expect(await mailsAfter(outbox)).toEqual([]);
    });

    it('five identical uploads at the same moment make one document and one set of e-mails', async () => {
      const bytes = samplePdf('case-3-five-at-once');
      const outbox = await lastOutboxId();
      const answers = await Promise.all(Array.from({ length: 5 }, () => uploadProperty({ title: 'Five At Once' }, bytes)));
      expect(new Set(answers.map((a) => a.document.id)).size).toBe(1);
      expect(answers.filter((a) => !a.alreadyPublished)).toHaveLength(1);
      expect(await documentsOf(bytes)).toHaveLength(1);
      expect((await mailsAfter(outbox)).map((m) => m.recipient).sort()).toEqual(readersOf(heartland));
    });

    it('upload-document under an Idempotency-Key answers a retry with the first result, even with another body', async () => {
      const key = `single-${Date.now()}`;
      const first = await sendForm('/api/admin/upload-document', propertyFields({ title: 'Keyed Notice' }), { bytes: samplePdf('keyed-single'), name: 'k.pdf' }, {
        'idempotency-key': key,
      });
      expect(first.status, first.text).toBe(200);
      const documents = await em().count(PropertyDocument);
      const outbox = await lastOutboxId();
      const retried = await sendForm(
        '/api/admin/upload-document',
        propertyFields({ title: 'Another Notice', property: sunset }),
        { bytes: samplePdf('keyed-single-other'), name: 'other.pdf' },
        { 'idempotency-key': key },
      );
      expect(retried.status, retried.text).toBe(200);
      expect(retried.json).toEqual(first.json);
      expect(await em().count(PropertyDocument)).toBe(documents);
      expect(await mailsAfter(outbox)).toEqual([]);
      // Another key is another upload.
      const other = await sendForm(
        '/api/admin/upload-document',
        propertyFields({ title: 'Another Notice', property: sunset }),
        { bytes: samplePdf('keyed-single-other'), name: 'other.pdf' },
        { 'idempotency-key': `${key}-2` },
      );
      expect(documentAnswer.parse(other.json).document.title).toBe('Another Notice');
    });

    it('upload-user-document under an Idempotency-Key answers a retry with the first result, even with another body', async () => {
      const key = `single-user-${Date.now()}`;
      const fields = { userEmail: investorA, title: 'Keyed K-1', documentCategory: 'tax', emailNotification: 'true' };
      const first = await sendForm('/api/admin/upload-user-document', fields, { bytes: samplePdf('keyed-user'), name: 'k1.pdf' }, { 'idempotency-key': key });
      expect(first.status, first.text).toBe(200);
      expect(personalDocumentAnswer.parse(first.json).alreadyPublished).toBe(false);
      const documents = await em().count(PersonalDocument);
      const outbox = await lastOutboxId();
      const retried = await sendForm(
        '/api/admin/upload-user-document',
        { ...fields, userEmail: investorB, title: 'Other K-1' },
        { bytes: samplePdf('keyed-user-other'), name: 'other.pdf' },
        { 'idempotency-key': key },
      );
      expect(retried.status, retried.text).toBe(200);
      expect(retried.json).toEqual(first.json);
      expect(await em().count(PersonalDocument)).toBe(documents);
      expect(await mailsAfter(outbox)).toEqual([]);
    });
  });

  describe('case 2: the destination is part of the identity', () => {
    it('publishes the same bytes for two properties as two documents, each e-mailed to its own readers', async () => {
      const bytes = samplePdf('case-2-two-properties');
      const outbox = await lastOutboxId();
      const forHeartland = await uploadProperty({ title: 'Capital Call Notice' }, bytes);
      const forSunset = await uploadProperty({ title: 'Capital Call Notice', property: sunset }, bytes);
      expect(forSunset.alreadyPublished ?? false).toBe(false);
      expect(forSunset.document.id).not.toBe(forHeartland.document.id);
      expect((await documentsOf(bytes)).map((d) => d.property)).toEqual([heartland, sunset]);
      const mails = await mailsAfter(outbox);
      expect(mails.map((m) => m.recipient).sort()).toEqual([...readersOf(heartland), ...readersOf(sunset)].sort());
    });

    it("refuses (409) a replace-document whose property is not the document's, replacing nothing", async () => {
      const original = samplePdf('case-2-replace-original');
      const document = (await uploadProperty({ title: 'Distribution Notice', emailNotification: 'false' }, original)).document;
      const sha = async () => (await em().findOneOrFail(PropertyDocument, document.id, { populate: ['file'] })).file.sha256;
      const before = await sha();
      const outbox = await lastOutboxId();
      const res = await sendForm(
        `/api/admin/replace-document/${document.id}`,
        { property: sunset, note: 'Edited', emailNotification: 'true' },
        { bytes: samplePdf('case-2-replace-sunset-edit'), name: 'Distribution Notice.pdf' },
      );
      expect(res.status, res.text).toBe(409);
      expect(res.json).toEqual({
        error: `This document is filed under ${heartland}, not ${sunset}: a file can only replace a document of its own property. Nothing was replaced.`,
      });
      expect((await em().findOneOrFail(PropertyDocument, document.id)).version).toBe(1);
      expect(await sha()).toBe(before);
      expect(await mailsAfter(outbox)).toEqual([]);
      // Its own property, in any letter case, is fine.
      const own = await sendForm(`/api/admin/replace-document/${document.id}`, { property: heartland.toUpperCase() }, {
        bytes: samplePdf('case-2-replace-own'),
        name: 'Distribution Notice.pdf',
      });
      expect(own.status, own.text).toBe(200);
      expect(documentAnswer.parse(own.json).corrected).toBe(true);
    });

    it('refuses (409) a replace-document with content another document of the same property has', async () => {
      const taken = samplePdf('case-2-content-taken');
      const holder = (await uploadProperty({ title: 'Holder', emailNotification: 'false' }, taken)).document;
      const other = (await uploadProperty({ title: 'Other', emailNotification: 'false' }, samplePdf('case-2-other'))).document;
      const res = await sendForm(`/api/admin/replace-document/${other.id}`, {}, { bytes: taken, name: 'x.pdf' });
      expect(res.status, res.text).toBe(409);
      expect(res.json).toEqual({
        error: `This file is already published for ${heartland} as "${holder.title}". Choose the corrected file, or delete the other document first.`,
      });
    });

    it("refuses (409) a replace-user-document whose investor is not the document's owner", async () => {
      const fields = { userEmail: investorA, title: 'Case 2 K-1', documentCategory: 'tax', emailNotification: 'false' };
      const first = await sendForm('/api/admin/upload-user-document', fields, { bytes: samplePdf('case-2-k1'), name: 'k1.pdf' });
      const document = personalDocumentAnswer.parse(first.json).document;
      const res = await sendForm(
        `/api/admin/replace-user-document/${document.id}`,
        { userEmail: investorB, emailNotification: 'true' },
        { bytes: samplePdf('case-2-k1-of-b'), name: 'k1.pdf' },
      );
      expect(res.status, res.text).toBe(409);
      expect(res.json).toEqual({
        error: `This document belongs to ${investorA}, not ${investorB}: a file can only replace a document of its own investor. Nothing was replaced.`,
      });
      expect((await em().findOneOrFail(PersonalDocument, document.id)).version).toBe(1);
      const own = await sendForm(`/api/admin/replace-user-document/${document.id}`, { userEmail: investorA.toUpperCase() }, {
        bytes: samplePdf('case-2-k1-corrected'),
        name: 'k1.pdf',
      });
      expect(own.status, own.text).toBe(200);
    });
  });

  describe('case 6: a replace with the very same file changes nothing and says so', () => {
    it('replace-document answers unchanged: no version, no audit row, no e-mail', async () => {
      const bytes = samplePdf('case-6-same-property-file');
      const document = (await uploadProperty({ title: 'Unchanged Notice', emailNotification: 'false' }, bytes)).document;
      const audits = await em().count(AuditEvent, { documentId: document.id });
      const outbox = await lastOutboxId();
      const res = await sendForm(
        `/api/admin/replace-document/${document.id}`,
        { note: 'Fixed', emailNotification: 'true', property: heartland },
        { bytes, name: 'Unchanged Notice (final).pdf' },
      );
      expect(res.status, res.text).toBe(200);
      const answer = documentAnswer.parse(res.json);
      expect(answer).toMatchObject({ unchanged: true, message: 'This is the file "Unchanged Notice" already has: nothing was changed and nobody was e-mailed.' });
      expect(answer.corrected ?? false).toBe(false);
      expect(answer.document).toEqual(document);
      expect(await em().count(AuditEvent, { documentId: document.id })).toBe(audits);
      expect(await mailsAfter(outbox)).toEqual([]);
    });

    it('replace-user-document answers unchanged: no version, no audit row, no e-mail', async () => {
      const bytes = samplePdf('case-6-same-personal-file');
      const fields = { userEmail: investorB, title: 'Unchanged K-1', documentCategory: 'tax', emailNotification: 'false' };
      const document = personalDocumentAnswer.parse((await sendForm('/api/admin/upload-user-document', fields, { bytes, name: 'k1.pdf' })).json).document;
      const audits = await em().count(AuditEvent, { documentId: document.id });
      const outbox = await lastOutboxId();
      const res = await sendForm(`/api/admin/replace-user-document/${document.id}`, { note: 'Fixed', emailNotification: 'true' }, { bytes, name: 'k1 again.pdf' });
      expect(res.status, res.text).toBe(200);
      const answer = personalDocumentAnswer.parse(res.json);
      expect(answer).toMatchObject({ unchanged: true, message: 'This is the file "Unchanged K-1" already has: nothing was changed and nobody was e-mailed.' });
      expect(answer.document).toEqual(document);
      expect(await em().count(AuditEvent, { documentId: document.id })).toBe(audits);
      expect(await mailsAfter(outbox)).toEqual([]);
    });
  });
});
