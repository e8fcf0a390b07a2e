import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bulkUploadPersonalDocumentsAnswer,
  documentAnswer,
  documentLinkAnswer,
  documentVersionsAnswer,
  investorDocumentsAnswer,
  personalDocumentAnswer,
  type InvestorDocument,
} from '@everest/core/contract';
import { currentYear, defaultPropertyGroup } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { recordingClient } from '../../../test/test-client';
import { samplePdf } from '../../../test/sample-documents';
import { removeStoredFile, storedFiles } from '../../../test/stored-files';
import { sweepUnreferencedFiles } from '../files/unreferenced-files';
import { queuedMails } from '../../../test/queued-mails';
import { documentVersionMessages } from './document-versions';

// Issue 21, corrected documents: every path that puts a new file under a document an investor
// already has (Replace, a re-upload of the same title, a batch row of that title, the watched
// folder's replace-user-document) publishes a version; the old files stay for administrators.

const admin = 'admin@example.com';
const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';

describe('corrected documents', () => {
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

  async function sendForm(route: string, fields: Record<string, string>, files: { field: string; bytes: Buffer | string; name: string }[]) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    for (const file of files) form.append(file.field, new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)]), file.name);
    const res = await server.api(route, { method: 'POST', headers: { authorization: `Bearer ${token()}` }, body: form });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  }

  async function publishPersonal(title: string, bytes: Buffer, fields: Record<string, string> = {}, userEmail = investorA) {
    const res = await sendForm(
      '/api/admin/upload-user-document',
      { userEmail, title, documentCategory: 'tax', emailNotification: 'false', ...fields },
      [{ field: 'document', bytes, name: `${title}.pdf` }],
    );
    expect(res.status, res.text).toBe(200);
    return personalDocumentAnswer.parse(res.json);
  }

  async function publishProperty(title: string, bytes: Buffer) {
    const res = await sendForm(
      '/api/admin/upload-document',
      { title, property: defaultPropertyGroup, year: String(currentYear()), quarter: 'Q1', emailNotification: 'false' },
      [{ field: 'document', bytes, name: `${title}.pdf` }],
    );
    expect(res.status, res.text).toBe(200);
    return documentAnswer.parse(res.json).document;
  }

  async function portalDocument(email: string, type: InvestorDocument['documentType'], id: number): Promise<InvestorDocument | undefined> {
    const res = await client.call('/api/investor/documents', { token: token(email) });
    expect(res.status, res.text).toBe(200);
    return investorDocumentsAnswer.parse(res.json).documents.find((d) => d.documentType === type && d.id === id);
  }

  async function versions(type: 'property' | 'personal', id: number) {
    const res = await client.call(`/api/admin/document-versions/${type}/${id}`, { token: token() });
    expect(res.status, res.text).toBe(200);
    return documentVersionsAnswer.parse(res.json);
  }

  async function getFile(path: string, email: string) {
    const res = await server.api(path, { headers: { authorization: `Bearer ${token(email)}` } });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  const mailsTo = async (email: string, since: number) => (await queuedMails(em())).filter((m) => m.recipient === email && m.id > since);
  const lastMailId = async () => (await queuedMails(em())).at(-1)?.id ?? 0;

  it('a correction keeps the old version downloadable for administrators only', async () => {
    const first = samplePdf('K-1 2025 first');
    const { document } = await publishPersonal('Versioned K-1 2025', first);
    expect(document).toMatchObject({ version: 1, correctedAt: null });

    const second = samplePdf('K-1 2025 corrected');
    const res = await sendForm(`/api/admin/replace-user-document/${document.id}`, { note: 'Box 5 was wrong' }, [
      { field: 'document', bytes: second, name: 'K-1 corrected.pdf' },
    ]);
    expect(res.status, res.text).toBe(200);
    const answer = personalDocumentAnswer.parse(res.json);
    // The spec's answer keeps its words; the added fields say it was a correction.
    expect(answer.message).toBe('The file of "Versioned K-1 2025" was replaced.');
    expect(answer.corrected).toBe(true);
    expect(answer.document).toMatchObject({ id: document.id, version: 2, filename: 'K-1 corrected.pdf' });
    expect(answer.document.correctedAt).not.toBeNull();

    const history = await versions('personal', document.id);
    expect(history.title).toBe('Versioned K-1 2025');
    expect(history.versions.map((v) => [v.version, v.current, v.filename, v.note, v.uploadedBy])).toEqual([
      [2, true, 'K-1 corrected.pdf', 'Box 5 was wrong', admin],
      [1, false, 'Versioned K-1 2025.pdf', '', admin],
    ]);
    const [current, old] = history.versions;
    if (!current || !old) throw new Error('two versions expected');

    // Administrators download either version.
    expect((await getFile(`/api/investor/download-version/${old.id}`, admin)).bytes.equals(first)).toBe(true);
    expect((await getFile(`/api/investor/download-version/${current.id}`, admin)).bytes.equals(second)).toBe(true);
    // The owner reads the current file, by the document or by its version; the old version is a 404 like no id at all.
    expect((await getFile(`/api/investor/download/${document.id}?type=user`, investorA)).bytes.equals(second)).toBe(true);
    expect((await getFile(`/api/investor/download-version/${current.id}`, investorA)).bytes.equals(second)).toBe(true);
    const refused = await server.api(`/api/investor/download-version/${old.id}`, { headers: { authorization: `Bearer ${token(investorA)}` } });
    const unknown = await server.api('/api/investor/download-version/99999999', { headers: { authorization: `Bearer ${token(investorA)}` } });
    expect(refused.status).toBe(404);
    expect(unknown.status).toBe(404);
    const unknownBody: unknown = await unknown.json();
    expect(await refused.json()).toEqual(unknownBody);
    expect(unknownBody).toEqual({ error: documentVersionMessages.versionNotFound });
    // Another investor: 404 for either.
    expect((await getFile(`/api/investor/download-version/${current.id}`, investorB)).status).toBe(404);
    // The history is the administrators'.
    expect((await client.call(`/api/admin/document-versions/personal/${document.id}`, { token: token(investorA) })).status).toBe(403);

    // A version's document link (issue 22) opens that version alone, by its address only; an
    // investor gets none for an earlier version, with the same 404 as an unknown one.
    const versionLink = async (id: number, email: string) => client.call('/api/investor/document-link', { token: token(email), body: { id, type: 'version' } });
    const adminLink = await versionLink(old.id, admin);
    expect(adminLink.status, adminLink.text).toBe(200);
    const { token: link } = documentLinkAnswer.parse(adminLink.json);
    const byLink = await server.api(`/api/investor/download-version/${old.id}?token=${encodeURIComponent(link)}`);
    expect(byLink.status).toBe(200);
    expect(Buffer.from(await byLink.arrayBuffer()).equals(first)).toBe(true);
    expect((await server.api(`/api/investor/download-version/${current.id}?token=${encodeURIComponent(link)}`)).status).toBe(401);
    expect((await server.api(`/api/investor/download/${document.id}?type=user&token=${encodeURIComponent(link)}`)).status).toBe(401);
    const investorOld = await versionLink(old.id, investorA);
    expect(investorOld.status).toBe(404);
    expect(investorOld.json).toEqual(unknownBody);
    expect((await versionLink(current.id, investorA)).status).toBe(200);

    // The old file is kept: the sweep of files nobody names leaves it, as the version names it.
    await sweepUnreferencedFiles(em(), server.services.files, 0);
    expect(await storedFiles(server.services.files)).toContain(old.sha256);
    expect((await getFile(`/api/investor/download-version/${old.id}`, admin)).status).toBe(200);

    const audit = await em().findOneOrFail(AuditEvent, { action: 'correct', documentId: document.id });
    expect(audit.details).toMatchObject({
      before: { version: 1, sha256: old.sha256 },
      after: { version: 2, sha256: current.sha256, note: 'Box 5 was wrong' },
    });
  });

  it("shows the investor the newest version marked corrected, 'New' again after they had opened it", async () => {
    const { document } = await publishPersonal('Reread K-1 2025', samplePdf('reread first'));
    expect((await getFile(`/api/investor/download/${document.id}?type=user`, investorA)).status).toBe(200);
    // The read reaches the cached list through PostgreSQL's NOTIFY, a moment after the download.
    await expect.poll(() => portalDocument(investorA, 'personal', document.id)).toMatchObject({ opened: true, version: 1, correctedAt: null });

    const res = await sendForm(`/api/admin/replace-user-document/${document.id}`, {}, [
      { field: 'document', bytes: samplePdf('reread second'), name: 'second.pdf' },
    ]);
    expect(res.status, res.text).toBe(200);
    const listed = await portalDocument(investorA, 'personal', document.id);
    expect(listed).toMatchObject({ opened: false, version: 2, filename: 'second.pdf' });
    expect(listed?.correctedAt).toEqual(expect.any(String));

    // Opening the corrected file clears 'New' again.
    expect((await getFile(`/api/investor/download/${document.id}?type=user`, investorA)).status).toBe(200);
    await expect.poll(() => portalDocument(investorA, 'personal', document.id)).toMatchObject({ opened: true, version: 2 });
  });

  it("replace-document corrects a property document and tells its readers why, with 'Corrected' in the e-mail", async () => {
    const original = samplePdf('general letter first');
    const document = await publishProperty('Corrected General Letter', original);
    const since = await lastMailId();
    const res = await sendForm(
      `/api/admin/replace-document/${document.id}`,
      { note: 'The distribution date was wrong', emailNotification: 'true' },
      [{ field: 'document', bytes: samplePdf('general letter second'), name: 'letter v2.pdf' }],
    );
    expect(res.status, res.text).toBe(200);
    const answer = documentAnswer.parse(res.json);
    expect(answer.corrected).toBe(true);
    expect(answer.document).toMatchObject({ version: 2, filename: 'letter v2.pdf' });
    expect(answer.message).toMatch(/^The file of "Corrected General Letter" was replaced\. \d+ people were notified by e-mail\.$/);

    const [mail] = await mailsTo(investorA, since);
    expect(mail?.subject).toBe('A corrected document is available in your investor portal');
    expect(mail?.text).toContain('published a corrected version of a document you have');
    expect(mail?.text).toContain('Corrected General Letter');
    expect(mail?.text).toContain('Corrected: The distribution date was wrong');
    expect((await mailsTo(investorB, since)).length).toBe(1);
    expect((await mailsTo(admin, since)).length).toBe(0);

    expect((await versions('property', document.id)).versions.map((v) => v.version)).toEqual([2, 1]);
    expect(await portalDocument(investorB, 'property', document.id)).toMatchObject({ version: 2, opened: false });
    expect(await em().count(AuditEvent, { action: 'correct', documentId: document.id, documentType: 'property' })).toBe(1);
  });

  it("a Replace without e-mail sends none, and a Replace of a 'File Missing' document repairs it without a version", async () => {
    const since = await lastMailId();
    const document = await publishProperty('Repaired Report', samplePdf('repaired first'));
    const corrected = await sendForm(`/api/admin/replace-document/${document.id}`, {}, [
      { field: 'document', bytes: samplePdf('repaired second'), name: 'second.pdf' },
    ]);
    expect(documentAnswer.parse(corrected.json).document.version).toBe(2);
    expect((await queuedMails(em())).filter((m) => m.id > since)).toEqual([]);

    const [current] = (await versions('property', document.id)).versions;
    await removeStoredFile(server.services.files, current?.sha256 ?? '');
    expect((await getFile(`/api/investor/download/${document.id}`, investorA)).status).toBe(410);
    const repaired = await sendForm(`/api/admin/replace-document/${document.id}`, {}, [
      { field: 'document', bytes: samplePdf('repaired third'), name: 'third.pdf' },
    ]);
    expect(repaired.status, repaired.text).toBe(200);
    const answer = documentAnswer.parse(repaired.json);
    expect(answer.corrected).toBeUndefined();
    expect(answer.document).toMatchObject({ version: 2, fileExists: true, filename: 'third.pdf' });
    const history = await versions('property', document.id);
    expect(history.versions.map((v) => [v.version, v.filename, v.fileExists])).toEqual([
      [2, 'third.pdf', true],
      [1, 'Repaired Report.pdf', true],
    ]);
    expect(await em().count(AuditEvent, { action: 'replace-document', documentId: document.id })).toBe(1);
  });

  it('an upload of a title the investor already has publishes its new version, with the note in the e-mail', async () => {
    const first = await publishPersonal('Reissued Statement 2025', samplePdf('statement first'));
    const since = await lastMailId();
    const again = await publishPersonal('REISSUED statement 2025', samplePdf('statement second'), {
      emailNotification: 'true',
      correctionNote: 'The capital account was restated',
    });
    expect(again.corrected).toBe(true);
    expect(again.alreadyPublished).toBe(false);
    expect(again.document).toMatchObject({ id: first.document.id, title: 'Reissued Statement 2025', version: 2 });
    expect(again.message).toBe(`"Reissued Statement 2025" of ${investorA} was corrected: version 2 is published.`);
    const [mail] = await mailsTo(investorA, since);
    expect(mail?.subject).toBe('A corrected document is available in your investor portal');
    expect(mail?.text).toContain('Corrected: The capital account was restated');
    // The same content as the current version is still 'already published', not a third version.
    const same = await publishPersonal('Reissued Statement 2025', samplePdf('statement second'));
    expect(same.alreadyPublished).toBe(true);
    expect((await versions('personal', first.document.id)).versions).toHaveLength(2);
    // Another investor's document of that title is theirs: a new document, not a correction.
    const other = await publishPersonal('Reissued Statement 2025', samplePdf('statement other'), {}, investorB);
    expect(other.corrected).toBeUndefined();
    expect(other.document.id).not.toBe(first.document.id);
  });

  it('a batch row whose title the investor already has corrects that document, and its digest says why', async () => {
    const { document } = await publishPersonal('Batch Corrected K-1', samplePdf('batch first'));
    const since = await lastMailId();
    const csv = [
      'email,filename,document_category,title,description,document_date,tags,correction_note',
      `${investorA},batch-k1-v2.pdf,tax,batch corrected k-1,,,,Allocation fixed`,
      `${investorA},batch-new.pdf,tax,Batch Brand New,,,,`,
    ].join('\n');
    const preview = await client.call('/api/admin/bulk-upload-preview', { body: { emails: [investorA], sha256: [] }, token: token() });
    expect(preview.status, preview.text).toBe(200);

    const res = await sendForm('/api/admin/bulk-upload-user-documents', { csvManifest: csv, emailNotification: 'true' }, [
      { field: 'documents', bytes: samplePdf('batch second'), name: 'batch-k1-v2.pdf' },
      { field: 'documents', bytes: samplePdf('batch brand new'), name: 'batch-new.pdf' },
    ]);
    expect(res.status, res.text).toBe(200);
    const answer = bulkUploadPersonalDocumentsAnswer.parse(res.json);
    expect(answer.failed).toEqual([]);
    expect(answer.message).toBe('2 published (1 of them a correction), 0 already published, 0 not published.');
    expect(answer.successful).toEqual([
      {
        filename: 'batch-k1-v2.pdf',
        userEmail: investorA,
        title: 'batch corrected k-1',
        documentId: document.id,
        corrected: true,
        // A correction is of the document of its own period, whose first publication it names.
        firstPublishedAt: document.uploadedAt,
        year: document.year,
        quarter: document.quarter,
      },
      expect.objectContaining({ filename: 'batch-new.pdf', title: 'Batch Brand New' }),
    ]);
    expect((await versions('personal', document.id)).versions[0]).toMatchObject({ version: 2, note: 'Allocation fixed', filename: 'batch-k1-v2.pdf' });
    const mails = await mailsTo(investorA, since);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('2 new or corrected documents are available in your investor portal');
    expect(mails[0]?.text).toContain('Batch Corrected K-1');
    expect(mails[0]?.text).toContain('Corrected: Allocation fixed');
    expect(await em().count(AuditEvent, { action: 'correct', documentId: document.id })).toBe(1);
  });

  it("a deleted document's versions go with it, so the sweep may take their files", async () => {
    const { document } = await publishPersonal('Soon Gone K-1', samplePdf('gone first'));
    await sendForm(`/api/admin/replace-user-document/${document.id}`, {}, [{ field: 'document', bytes: samplePdf('gone second'), name: 'g2.pdf' }]);
    const [, old] = (await versions('personal', document.id)).versions;
    const res = await client.call('/api/admin/delete-user-document', { body: { documentId: document.id }, token: token() });
    expect(res.status, res.text).toBe(200);
    const [row] = await em().execute<{ count: string }[]>(`select count(*) from document_versions where document_type = 'personal' and document_id = ?`, [document.id]);
    expect(Number(row?.count)).toBe(0);
    expect((await getFile(`/api/investor/download-version/${old?.id ?? 0}`, admin)).status).toBe(404);
    expect((await client.call(`/api/admin/document-versions/personal/${document.id}`, { token: token() })).status).toBe(404);
  });
});
