import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkUploadPersonalDocumentsAnswer, documentAnswer, documentRecipientsAnswer, notifyDocumentsAnswer } from '@everest/core/contract';
import { currentYear, defaultPropertyGroup } from '@everest/core/domain';
import { demoUsers } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { recordingClient } from '../../../test/test-client';
import { samplePdf } from '../../../test/sample-documents';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { SmtpListener, type ReceivedMail } from '../../../test/smtp-listener';
import { adminDocumentMessages } from './admin-documents.service';

const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';

const accessOf = (email: string) => demoUsers.find((u) => u.email === email)?.propertyAccess ?? [];
/** A property investor A may read and investor B may not. */
const onlyA = accessOf(investorA).find((name) => !accessOf(investorB).includes(name)) ?? '';
/** Who may read a document of this property (or of 'General'): the seed's investors and employees. */
const readersOf = (property: string) =>
  demoUsers.filter((u) => u.role !== 'administrator' && (property === defaultPropertyGroup || u.propertyAccess.includes(property))).map((u) => u.email);

describe('POST /api/admin/notify-documents: one digest per investor for a batch', () => {
  let smtp: SmtpListener;
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let token = '';

  beforeAll(async () => {
    expect(onlyA).not.toBe('');
    smtp = await SmtpListener.start();
    server = await startTestServer({ seed: true, env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://everest.test' } });
    // As in production: the worker delivers what the routes queue.
    server.services.outbox.start();
    client = recordingClient(server);
    token = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  const em = () => server.services.orm.em.fork();
  const outboxCount = () => em().count(OutboxMessage);
  /** Every queued e-mail delivered: the state to wait for before counting what arrived. */
  const delivered = async () => {
    await expect.poll(async () => em().count(OutboxMessage, { status: { $ne: 'sent' } }), { timeout: 10_000 }).toBe(0);
    await expect.poll(async () => smtp.received.length).toBe(await em().count(OutboxMessage));
  };

  async function upload(title: string, property: string, flags: { emailNotification: boolean; notifyLater?: boolean }) {
    const form = new FormData();
    form.set('title', title);
    form.set('property', property);
    form.set('year', String(currentYear()));
    form.set('quarter', 'Q1');
    form.set('emailNotification', String(flags.emailNotification));
    if (flags.notifyLater !== undefined) form.set('notifyLater', String(flags.notifyLater));
    form.set('document', new Blob([new Uint8Array(samplePdf(title))]), `${title}.pdf`);
    const res = await server.api('/api/admin/upload-document', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return documentAnswer.parse(JSON.parse(text));
  }

  async function notify(documentIds: unknown, userDocumentIds?: unknown) {
    const body = userDocumentIds === undefined ? { documentIds } : { documentIds, userDocumentIds };
    const res = await client.call('/api/admin/notify-documents', { body, token });
    return { status: res.status, text: res.text, json: res.json };
  }

  const mailsSince = (from: number): ReceivedMail[] => smtp.received.slice(from);
  const listed = (mail: ReceivedMail | undefined) => mail?.text ?? '';

  it('queues nothing at upload, then sends each reader exactly one digest listing only the documents they may read', async () => {
    const before = await outboxCount();
    const received = smtp.received.length;
    const first = await upload('Batch Digest Report One', onlyA, { emailNotification: true, notifyLater: true });
    const second = await upload('Batch Digest Report Two', onlyA, { emailNotification: true, notifyLater: true });
    const general = await upload('Batch Digest Letter', defaultPropertyGroup, { emailNotification: true, notifyLater: true });
    expect(first.message).toBe('Document "Batch Digest Report One" uploaded. Its e-mail waits to be sent with the rest of its batch.');
    expect(await outboxCount()).toBe(before);

    const ids = [first.document.id, second.document.id, general.document.id];
    const res = await notify(ids);
    expect(res.status, res.text).toBe(200);
    const answer = notifyDocumentsAnswer.parse(res.json);
    const readers = readersOf(defaultPropertyGroup);
    expect(answer).toEqual({
      message: `3 document(s) announced. ${readers.length} people were notified by e-mail.`,
      documentIds: [...ids].sort((a, b) => a - b),
      userDocumentIds: [],
      notified: readers.length,
      corrected: 0,
    });

    await delivered();
    const mails = mailsSince(received);
    // Exactly one e-mail to each reader, none to administrators.
    expect(mails.flatMap((m) => m.to).sort()).toEqual([...readers].sort());
    const mailTo = (email: string) => mails.find((m) => m.to.includes(email));
    expect(mailTo(investorA)?.header('subject')).toBe('3 new documents are available in your investor portal');
    expect(listed(mailTo(investorA))).toContain('Batch Digest Report One');
    expect(listed(mailTo(investorA))).toContain('Batch Digest Report Two');
    expect(listed(mailTo(investorA))).toContain(`${onlyA} · Q1 ${currentYear()}`);
    expect(listed(mailTo(investorA))).toContain('Batch Digest Letter');
    // Investor B has no access to onlyA: the general letter only, in a one-document digest.
    expect(mailTo(investorB)?.header('subject')).toBe('A new document is available in your investor portal');
    expect(listed(mailTo(investorB))).toContain('Batch Digest Letter');
    expect(listed(mailTo(investorB))).not.toContain('Batch Digest Report');
    for (const email of readersOf(onlyA)) expect(listed(mailTo(email))).toContain('Batch Digest Report Two');

    const audit = await em().findOneOrFail(AuditEvent, { action: 'notify-documents' }, { orderBy: { id: 'desc' } });
    expect(audit.details).toMatchObject({ after: { documentIds: answer.documentIds, notified: readers.length } });

    // Retried (a lost answer): nothing is sent twice.
    const again = await notify(ids);
    expect(again.status, again.text).toBe(200);
    expect(notifyDocumentsAnswer.parse(again.json)).toEqual({
      message: adminDocumentMessages.nothingToNotify,
      documentIds: [],
      userDocumentIds: [],
      notified: 0,
      corrected: 0,
    });
    expect(await outboxCount()).toBe(before + readers.length);
  });

  it('announces a batch once when the same call arrives twice at the same moment', async () => {
    const before = await outboxCount();
    const received = smtp.received.length;
    const documents = await Promise.all(
      ['Race Digest A', 'Race Digest B'].map((title) => upload(title, onlyA, { emailNotification: true, notifyLater: true })),
    );
    const ids = documents.map((d) => d.document.id);
    const answers = await Promise.all([notify(ids), notify(ids)]);
    const parsed = answers.map((a) => notifyDocumentsAnswer.parse(a.json));
    expect(parsed.flatMap((a) => a.documentIds).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(parsed.map((a) => a.notified).sort()).toEqual([0, readersOf(onlyA).length]);
    expect(await outboxCount()).toBe(before + readersOf(onlyA).length);
    await delivered();
    expect(mailsSince(received).flatMap((m) => m.to).sort()).toEqual([...readersOf(onlyA)].sort());
  });

  it('leaves alone documents notified at upload, uploaded without e-mail, unknown or deleted', async () => {
    const received = smtp.received.length;
    const before = await outboxCount();
    const atOnce = await upload('Digest At Once', onlyA, { emailNotification: true });
    expect(atOnce.message).toMatch(/ \d+ people were notified by e-mail\.$/);
    expect(await outboxCount()).toBe(before + readersOf(onlyA).length);
    const silent = await upload('Digest Silent', onlyA, { emailNotification: false, notifyLater: true });
    const deleted = await upload('Digest Deleted', onlyA, { emailNotification: true, notifyLater: true });
    const removed = await client.call('/api/admin/delete-document', { body: { documentId: deleted.document.id }, token });
    expect(removed.status, removed.text).toBe(200);

    const res = await notify([atOnce.document.id, silent.document.id, deleted.document.id, 999_999]);
    expect(res.status, res.text).toBe(200);
    expect(notifyDocumentsAnswer.parse(res.json)).toMatchObject({ documentIds: [], notified: 0 });
    await delivered();
    // The upload's own e-mails, one each, and nothing from notify.
    expect(mailsSince(received).flatMap((m) => m.to).sort()).toEqual([...readersOf(onlyA)].sort());
  });

  /** Personal documents through the bulk upload, waiting for notify-documents (issue 32 case 7). */
  async function bulkLater(rows: { email: string; name: string; title: string }[]) {
    const form = new FormData();
    const manifest = ['email,filename,document_category,title', ...rows.map((r) => `${r.email},${r.name},tax,${r.title}`)].join('\n');
    form.set('csvManifest', new Blob([manifest]), 'manifest.csv');
    for (const row of rows) form.append('documents[]', new Blob([new Uint8Array(samplePdf(row.title))]), row.name);
    form.set('emailNotification', 'true');
    form.set('notifyLater', 'true');
    const res = await server.api('/api/admin/bulk-upload-user-documents', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return bulkUploadPersonalDocumentsAnswer.parse(JSON.parse(text));
  }

  it("sends each reader one digest for a quarter folder's two halves: property documents and personal documents together, once (issue 32 case 7)", async () => {
    const before = await outboxCount();
    const received = smtp.received.length;
    const property = await upload('Folder Quarterly Report', onlyA, { emailNotification: true, notifyLater: true });
    const personal = await bulkLater([
      { email: investorA, name: 'folder-k1-a.pdf', title: 'Folder K-1 A' },
      { email: investorB, name: 'folder-k1-b.pdf', title: 'Folder K-1 B' },
    ]);
    expect(personal.successful).toHaveLength(2);
    expect(personal.pendingUserDocumentIds?.sort((a, b) => a - b)).toEqual(personal.successful.map((s) => s.documentId).sort((a, b) => a - b));
    // Nothing is sent before the folder is done.
    expect(await outboxCount()).toBe(before);

    const res = await notify([property.document.id], personal.pendingUserDocumentIds);
    expect(res.status, res.text).toBe(200);
    const answer = notifyDocumentsAnswer.parse(res.json);
    const readers = [...new Set([...readersOf(onlyA), investorA, investorB])].sort();
    expect(answer).toMatchObject({ documentIds: [property.document.id], userDocumentIds: personal.pendingUserDocumentIds, notified: readers.length });
    expect(answer.message).toBe(`3 document(s) announced. ${readers.length} people were notified by e-mail.`);

    await delivered();
    const mails = mailsSince(received);
    expect(mails.flatMap((m) => m.to).sort()).toEqual(readers);
    const mailTo = (email: string) => mails.find((m) => m.to.includes(email));
    expect(mailTo(investorA)?.header('subject')).toBe('2 new documents are available in your investor portal');
    expect(listed(mailTo(investorA))).toContain('Folder Quarterly Report');
    expect(listed(mailTo(investorA))).toContain('Folder K-1 A');
    expect(listed(mailTo(investorA))).not.toContain('Folder K-1 B');
    expect(listed(mailTo(investorB))).toContain('Folder K-1 B');
    expect(listed(mailTo(investorB))).not.toContain('Folder Quarterly Report');

    // Exactly once: the same call again sends nothing.
    const again = notifyDocumentsAnswer.parse((await notify([property.document.id], personal.pendingUserDocumentIds)).json);
    expect(again).toMatchObject({ documentIds: [], userDocumentIds: [], notified: 0 });
    expect(await outboxCount()).toBe(before + readers.length);
  });

  it('a personal document for a deactivated investor is refused, and waits for no e-mail', async () => {
    const inactive = demoUsers.find((u) => u.role === 'user' && u.email !== investorA && u.email !== investorB)?.email ?? '';
    await em().getConnection().execute('update users set is_active = false where email = ?', [inactive]);
    try {
      const answer = await bulkLater([{ email: inactive, name: 'inactive-k1.pdf', title: 'Inactive K-1' }]);
      expect(answer.successful).toEqual([]);
      expect(answer.failed).toEqual([{ filename: 'inactive-k1.pdf', error: expect.stringContaining('is deactivated') }]);
      expect(answer.pendingUserDocumentIds).toEqual([]);
    } finally {
      await em().getConnection().execute('update users set is_active = true where email = ?', [inactive]);
    }
  });

  it('document-recipients says how many a new document of a property would e-mail, by the rule the upload then follows (issue 32 case 7)', async () => {
    const ask = async (property: string, as = token) =>
      client.call(`/api/admin/document-recipients?property=${encodeURIComponent(property)}`, { token: as });
    const answerFor = async (property: string) => {
      const res = await ask(property);
      expect(res.status, res.text).toBe(200);
      return documentRecipientsAnswer.parse(res.json);
    };
    expect(await answerFor(onlyA)).toEqual({ recipients: readersOf(onlyA).length, investorRelations: true });
    expect(await answerFor(defaultPropertyGroup.toLowerCase())).toEqual({ recipients: readersOf(defaultPropertyGroup).length, investorRelations: true });

    // The count is the upload's own: as many e-mails are then queued.
    const before = await outboxCount();
    await upload('Recipients Counted Report', onlyA, { emailNotification: true });
    expect((await outboxCount()) - before).toBe((await answerFor(onlyA)).recipients);

    // A property investors are not shown: sold, inactive or out of investor relations.
    const [row] = await em().getConnection().execute<{ status: string }[]>('select status from properties where name = ?', [onlyA]);
    try {
      await em().getConnection().execute(`update properties set status = 'sold' where name = ?`, [onlyA]);
      expect((await answerFor(onlyA)).investorRelations).toBe(false);
      await em().getConnection().execute(`update properties set status = ?, investor_relations = false where name = ?`, [row?.status, onlyA]);
      expect((await answerFor(onlyA)).investorRelations).toBe(false);
    } finally {
      await em().getConnection().execute(`update properties set status = ?, investor_relations = true where name = ?`, [row?.status, onlyA]);
    }

    const unknown = await ask('Nowhere Plaza');
    expect(unknown.status).toBe(400);
    expect(unknown.json).toEqual({ error: adminDocumentMessages.unknownProperty('Nowhere Plaza') });
    const investor = await ask(onlyA, await client.signIn(investorA));
    expect(investor.status).toBe(403);
  });

  it('a correction asked with notifyLater queues nothing, then reaches each reader in the digest as corrected, with its note', async () => {
    const published = await upload('Batch Digest Corrected Statement', onlyA, { emailNotification: false });
    await delivered();
    const before = await outboxCount();
    const received = smtp.received.length;
    const form = new FormData();
    form.set('emailNotification', 'true');
    form.set('notifyLater', 'true');
    form.set('note', 'The distribution figure was wrong.');
    form.set('document', new Blob([new Uint8Array(samplePdf('Batch Digest Corrected Statement, right figures'))]), 'statement.pdf');
    const res = await server.api(`/api/admin/replace-document/${published.document.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(documentAnswer.parse(JSON.parse(text))).toMatchObject({ corrected: true, document: { version: 2 } });
    expect(await outboxCount()).toBe(before);

    const answer = notifyDocumentsAnswer.parse((await notify([published.document.id])).json);
    expect(answer).toMatchObject({ documentIds: [published.document.id], notified: readersOf(onlyA).length, corrected: 1 });
    await delivered();
    const mails = mailsSince(received);
    expect(mails.flatMap((m) => m.to).sort()).toEqual([...readersOf(onlyA)].sort());
    const mail = mails.find((m) => m.to.includes(investorA));
    expect(mail?.header('subject')).toBe('A corrected document is available in your investor portal');
    expect(listed(mail)).toContain('Corrected: The distribution figure was wrong.');
  });

  it('refuses an empty or malformed list with the sentence to show', async () => {
    const empty = await notify([]);
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({ error: 'Please choose a document.' });
    const bad = await notify(['x']);
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'Please choose a document.' });
  });
});
