import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkUploadPreviewAnswer, bulkUploadPersonalDocumentsAnswer } from '@everest/core/contract';
import {
  bulkManifestMessages,
  currentYear,
  documentCategoryLabels,
  manifestEmails,
  manifestKnowledgeOf,
  periodAt,
  maxDocumentBytes,
  planBulkManifest,
  portalMessages,
} from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { recordingClient } from '../../../test/test-client';
import { documentFileMessages } from '../files/document-type';
import { plainZip, sampleDocx, samplePdf, sampleXlsx } from '../../../test/sample-documents';
import { OutboxMessage } from '../mail/outbox-message.entity';
import type { SessionUser } from '../../http/state';
import { bulkUploadMessages } from './bulk-personal-documents.service';
import { publishCorrection } from '../document-access/document-versions';
import { PersonalDocument } from './personal-document.entity';
import { tempFiles as tempFilesOf } from '../../../test/stored-files';

const admin = 'admin@example.com';
const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';
const header = 'email,filename,document_category,title,description,document_date,tags';

/**
 * The rows of these tests are written with their optional cells left off; a spreadsheet saves
 * every row with all the header's fields, and core refuses a row with fewer (issue 32 case 1).
 */
function asSaved(manifest: string): string {
  const [first = '', ...rows] = manifest.split('\n');
  const fields = first.split(',').length;
  return [first, ...rows.map((row) => (row === '' ? row : row + ','.repeat(Math.max(0, fields - row.split(',').length))))].join('\n');
}

interface Part {
  name: string;
  bytes: Buffer;
}

describe('bulk-upload-user-documents', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let adminToken = '';
  let investorToken = '';

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    adminToken = await client.signIn(admin);
    investorToken = await client.signIn(investorA);
  });
  afterAll(async () => {
    await server.close();
  });

  const em = () => server.services.orm.em.fork();
  const lastOutboxId = async () => (await em().findOne(OutboxMessage, { id: { $gt: 0 } }, { orderBy: { id: 'desc' } }))?.id ?? 0;
  const mailsAfter = (id: number) => em().find(OutboxMessage, { id: { $gt: id } }, { orderBy: { id: 'asc' } });
  const tempFiles = () => tempFilesOf(server.services.files);

  async function send(
    manifest: string | null,
    files: Part[],
    options: { notify?: boolean; manifestAsField?: boolean; token?: string; field?: string; key?: string; fields?: Record<string, string>; exact?: boolean } = {},
  ) {
    const form = new FormData();
    if (manifest !== null) {
      if (!options.exact) manifest = asSaved(manifest);
      if (options.manifestAsField) form.set('csvManifest', manifest);
      else form.set('csvManifest', new Blob([manifest], { type: 'text/csv' }), 'manifest.csv');
    }
    for (const file of files) form.append(options.field ?? 'documents[]', new Blob([new Uint8Array(file.bytes)]), file.name);
    form.set('emailNotification', options.notify ? 'true' : 'false');
    for (const [name, value] of Object.entries(options.fields ?? {})) form.set(name, value);
    const res = await server.api('/api/admin/bulk-upload-user-documents', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.token ?? adminToken}`,
        ...(options.key === undefined ? {} : { 'idempotency-key': options.key }),
      },
      body: form,
    });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  }

  async function publish(manifest: string, files: Part[], options: { notify?: boolean; manifestAsField?: boolean; fields?: Record<string, string> } = {}) {
    const res = await send(manifest, files, options);
    expect(res.status, res.text).toBe(200);
    return bulkUploadPersonalDocumentsAnswer.parse(res.json);
  }

  it('publishes every valid row, reports every rule with its row, and answers the results shape', async () => {
    const outbox = await lastOutboxId();
    const manifest = [
      header,
      `${investorA},a-k1.pdf,tax,Bulk A K-1,Schedule K-1,2025-03-15,k1`,
      `${investorB},b-k1.pdf,Tax,Bulk B K-1,,,`,
      `,c.pdf,tax,No e-mail`,
      `nobody@example.com,d.pdf,tax,Stranger`,
      `${investorA},e.pdf,property,Wrong category`,
      `${investorA},not-selected.pdf,tax,Gone`,
      `${investorA},a-k1.pdf,legal,Twice`,
    ].join('\n');
    const answer = await publish(manifest, [
      { name: 'a-k1.pdf', bytes: samplePdf('bulk-a') },
      { name: 'b-k1.pdf', bytes: samplePdf('bulk-b') },
      { name: 'c.pdf', bytes: samplePdf('bulk-c') },
      { name: 'd.pdf', bytes: samplePdf('bulk-d') },
      { name: 'e.pdf', bytes: samplePdf('bulk-e') },
      { name: 'extra.docx', bytes: sampleDocx('not in the manifest') },
    ]);
    expect(answer.successful.map((s) => [s.filename, s.userEmail, s.title])).toEqual([
      ['a-k1.pdf', investorA, 'Bulk A K-1'],
      ['b-k1.pdf', investorB, 'Bulk B K-1'],
    ]);
    expect(answer.failed).toEqual([
      { filename: 'c.pdf', error: `Row 4: ${portalMessages.manifestMissingFields}` },
      { filename: 'd.pdf', error: 'Row 5: User not found' },
      { filename: 'e.pdf', error: `Row 6: ${bulkManifestMessages.badCategory}` },
      { filename: 'not-selected.pdf', error: `Row 7: ${bulkManifestMessages.fileMissing}` },
      { filename: 'a-k1.pdf', error: `Row 8: ${bulkManifestMessages.duplicateRow}` },
    ]);
    expect(answer.failed[0]?.error).toBe('Row 4: Missing required fields (email, filename, document_category, title)');
    expect(answer.unprocessed).toEqual(['extra.docx']);
    expect(answer.totalProcessed).toBe(7);

    const stored = await em().findOneOrFail(PersonalDocument, answer.successful[0]?.documentId ?? 0, { populate: ['user'] });
    expect(stored).toMatchObject({ title: 'Bulk A K-1', documentCategory: 'tax', description: 'Schedule K-1', tags: 'k1', year: 2025, quarter: 'Q1' });
    expect(stored.user.email).toBe(investorA);
    // Without emailNotification nobody is written to.
    expect(await mailsAfter(outbox)).toEqual([]);
    // Each published document has its audit row, with the manifest row it came from.
    const audit = await em().findOneOrFail(AuditEvent, { action: 'bulk-upload-user-documents', documentId: stored.id });
    expect(audit.details).toMatchObject({ after: expect.objectContaining({ manifestRow: 2, userEmail: investorA }) });
    expect(await tempFiles()).toEqual([]);
  });

  it('re-sending a committed batch publishes nothing new, sends no e-mail and lists its rows as already published, not failed', async () => {
    const manifest = `${header}\n${investorA},r1.pdf,tax,Resend 1\n${investorB},r2.xlsx,financial,Resend 2\n`;
    const files = [
      { name: 'r1.pdf', bytes: samplePdf('resend-1') },
      { name: 'r2.xlsx', bytes: sampleXlsx() },
    ];
    const first = await publish(manifest, files, { notify: true });
    expect(first.successful).toHaveLength(2);
    const documents = await em().count(PersonalDocument, {});
    const audits = await em().count(AuditEvent, { action: 'bulk-upload-user-documents' });
    const outbox = await lastOutboxId();

    const again = await publish(manifest, files, { notify: true });
    expect(again.successful).toEqual([]);
    // Already published is not a failure (issue 32 case 6): listed apart, with the document it is.
    expect(again.failed).toEqual([]);
    expect(again.alreadyPublished).toEqual(
      first.successful.map(({ filename, userEmail, title, documentId }) => ({ filename, userEmail, title, documentId })),
    );
    expect(again.message).toBe('0 published, 2 already published, 0 not published.');
    expect(again.totalProcessed).toBe(2);
    expect(await em().count(PersonalDocument, {})).toBe(documents);
    expect(await em().count(AuditEvent, { action: 'bulk-upload-user-documents' })).toBe(audits);
    expect(await mailsAfter(outbox)).toEqual([]);
  });

  it('publishes a title the investor already has, for another file, as a corrected version of that document (issue 21)', async () => {
    const first = await publish(`${header}\n${investorB},t1.pdf,tax,Title Taken`, [{ name: 't1.pdf', bytes: samplePdf('title-1') }]);
    const answer = await publish(`${header}\n${investorB},t2.pdf,tax,title taken\n${investorA},t2.pdf,tax,Title Taken`, [
      { name: 't2.pdf', bytes: samplePdf('title-2') },
    ]);
    expect(answer.failed).toEqual([]);
    expect(answer.successful.map((s) => [s.userEmail, s.documentId === first.successful[0]?.documentId, s.corrected ?? false])).toEqual([
      [investorB, true, true],
      [investorA, false, false],
    ]);
  });

  it('refuses two rows of one title for one investor in a batch', async () => {
    const answer = await publish(`${header}\n${investorB},t3.pdf,tax,Twice In A Batch\n${investorB},t4.pdf,tax,twice in a batch`, [
      { name: 't3.pdf', bytes: samplePdf('title-3') },
      { name: 't4.pdf', bytes: samplePdf('title-4') },
    ]);
    expect(answer.failed).toEqual([{ filename: 't4.pdf', error: `Row 3: ${bulkManifestMessages.titleUsed}` }]);
  });

  it('queues one digest per investor for the batch, listing each of their new documents', async () => {
    const outbox = await lastOutboxId();
    const answer = await publish(
      [
        header,
        `${investorA},d1.pdf,tax,Digest One,,2026-02-01,`,
        `${investorA},d2.pdf,legal,Digest Two,,2026-05-01,`,
        `${investorB},d3.pdf,personal,Digest Three,,,`,
      ].join('\n'),
      [
        { name: 'd1.pdf', bytes: samplePdf('digest-1') },
        { name: 'd2.pdf', bytes: samplePdf('digest-2') },
        { name: 'd3.pdf', bytes: samplePdf('digest-3') },
      ],
      { notify: true, manifestAsField: true },
    );
    expect(answer.successful).toHaveLength(3);
    const mails = await mailsAfter(outbox);
    expect(mails.map((m) => m.recipient).sort()).toEqual([investorA, investorB].sort());
    const toA = mails.find((m) => m.recipient === investorA);
    expect(toA?.subject).toBe('2 new documents are available in your investor portal');
    expect(toA?.text).toContain('Digest One');
    expect(toA?.text).toContain('Digest Two');
    expect(toA?.text).not.toContain('Digest Three');
  });

  it("files a row without document_date under the batch's year and quarter, a row with one under its own (issue 32 case 4)", async () => {
    const batchYear = currentYear() - 1;
    const outbox = await lastOutboxId();
    const answer = await publish(
      [header, `${investorA},period-1.pdf,tax,Batch Period One,,,`, `${investorA},period-2.pdf,tax,Batch Period Two,,2025-02-10,`].join('\n'),
      [
        { name: 'period-1.pdf', bytes: samplePdf('period-1') },
        { name: 'period-2.pdf', bytes: samplePdf('period-2') },
      ],
      { notify: true, fields: { year: String(batchYear), quarter: 'Q3' } },
    );
    expect(answer.successful.map((s) => [s.title, s.year, s.quarter])).toEqual([
      ['Batch Period One', batchYear, 'Q3'],
      ['Batch Period Two', 2025, 'Q1'],
    ]);
    const stored = await em().find(PersonalDocument, { id: { $in: answer.successful.map((s) => s.documentId) } }, { orderBy: { id: 'asc' } });
    expect(stored.map((d) => [d.year, d.quarter])).toEqual([
      [batchYear, 'Q3'],
      [2025, 'Q1'],
    ]);
    const [mail] = await mailsAfter(outbox);
    expect(mail?.text).toContain(`${documentCategoryLabels.tax} · Q3 ${batchYear}`);
    expect(mail?.text).toContain(`${documentCategoryLabels.tax} · Q1 2025`);

    // Without a batch period, the upload date's quarter, as before.
    const today = await publish(`${header}\n${investorA},period-3.pdf,tax,Batch Period Three`, [{ name: 'period-3.pdf', bytes: samplePdf('period-3') }]);
    expect(today.successful[0]).toMatchObject(periodAt(new Date()));
  });

  it('refuses a batch period with a year and no quarter, or a quarter and no year', async () => {
    const halves: Record<string, string>[] = [{ year: String(currentYear()) }, { quarter: 'Q2' }];
    for (const fields of halves) {
      const res = await send(`${header}\n${investorA},half.pdf,tax,Half A Period`, [{ name: 'half.pdf', bytes: samplePdf('half-period') }], { fields });
      expect(res.status, res.text).toBe(400);
      expect(res.json).toEqual({ error: bulkUploadMessages.halfPeriod });
    }
  });

  it('a bad file fails only its own row: 413 too large, 415 wrong type, a plain zip as .docx', async () => {
    const answer = await publish(
      [
        header,
        `${investorA},big.pdf,tax,Too big`,
        `${investorA},text.pdf,tax,Not a PDF`,
        `${investorA},zip.docx,tax,Any zip`,
        `${investorA},fine.pdf,tax,Fine one`,
      ].join('\n'),
      [
        { name: 'big.pdf', bytes: Buffer.concat([samplePdf('big'), Buffer.alloc(maxDocumentBytes)]) },
        { name: 'text.pdf', bytes: Buffer.from('just some text, not a document') },
        { name: 'zip.docx', bytes: plainZip() },
        { name: 'fine.pdf', bytes: samplePdf('fine-after-bad') },
      ],
    );
    expect(answer.successful.map((s) => s.filename)).toEqual(['fine.pdf']);
    expect(answer.failed).toEqual([
      { filename: 'big.pdf', error: `Row 2: ${documentFileMessages.tooLarge}` },
      { filename: 'text.pdf', error: `Row 3: ${documentFileMessages.wrongType}` },
      { filename: 'zip.docx', error: `Row 4: ${documentFileMessages.wrongType}` },
    ]);
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses a whole manifest with an unclosed quote before anything is published or e-mailed (issue 32 case 1)', async () => {
    const documents = await em().count(PersonalDocument, {});
    const outbox = await lastOutboxId();
    const manifest = [
      header,
      `${investorB},leak-d.pdf,tax,"2025 K-1 for the ""Trust,,,`,
      `${investorA},leak-e.pdf,tax,Someone else's K-1,,,`,
    ].join('\n');
    const res = await send(
      manifest,
      [
        { name: 'leak-d.pdf', bytes: samplePdf('leak-d') },
        { name: 'leak-e.pdf', bytes: samplePdf('leak-e') },
      ],
      { notify: true, exact: true },
    );
    expect(res.status, res.text).toBe(400);
    expect(res.json).toEqual({ error: 'Line 2: a quoted field is not closed.' });
    expect(await em().count(PersonalDocument, {})).toBe(documents);
    expect(await mailsAfter(outbox)).toEqual([]);
    expect(await tempFiles()).toEqual([]);
  });

  it("answers 'No data found in CSV' for a manifest without rows, and stores nothing", async () => {
    const documents = await em().count(PersonalDocument, {});
    const res = await send(`\uFEFF${header}\n\n`, [{ name: 'x.pdf', bytes: samplePdf('no-data') }]);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: expect.stringContaining('No data found in CSV') });
    expect(await em().count(PersonalDocument, {})).toBe(documents);
    expect(await tempFiles()).toEqual([]);
  });

  it("answers 'Missing Files' without a manifest or without files", async () => {
    const noManifest = await send(null, [{ name: 'x.pdf', bytes: samplePdf('no-manifest') }]);
    expect(noManifest.status).toBe(400);
    expect(noManifest.json).toMatchObject({ error: bulkUploadMessages.missingFiles });
    const noFiles = await send(`${header}\n${investorA},x.pdf,tax,T`, []);
    expect(noFiles.status).toBe(400);
    expect(noFiles.json).toMatchObject({ error: expect.stringContaining('Missing Files') });
  });

  it("takes the files in 'documents' as well as 'documents[]', and a windows-1252 manifest", async () => {
    const manifest = asSaved(`${header}\n${investorB},w.pdf,tax,Caf\xe9 K-1`);
    const form = new FormData();
    form.set('csvManifest', new Blob([Buffer.from(manifest, 'latin1')]), 'manifest.csv');
    form.append('documents', new Blob([new Uint8Array(samplePdf('win-1252'))]), 'w.pdf');
    const res = await server.api('/api/admin/bulk-upload-user-documents', {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
      body: form,
    });
    const answer = bulkUploadPersonalDocumentsAnswer.parse(await res.json());
    expect(answer.successful.map((s) => s.title)).toEqual(['Café K-1']);
  });

  it('a batch confirmed again under the same Idempotency-Key answers repeated: nothing new published, the first batch listed as already published', async () => {
    const key = `batch-${Date.now()}`;
    const manifest = `${header}\n${investorA},k1.pdf,tax,Keyed K-1\n${investorB},k2.pdf,tax,Keyed K-2\n`;
    const files = [
      { name: 'k1.pdf', bytes: samplePdf('keyed-1') },
      { name: 'k2.pdf', bytes: samplePdf('keyed-2') },
      { name: 'stray.pdf', bytes: samplePdf('keyed-stray') },
    ];
    const first = await send(manifest, files, { notify: true, key });
    expect(first.status, first.text).toBe(200);
    const documents = await em().count(PersonalDocument, {});
    const outbox = await lastOutboxId();

    const retried = await send(manifest, files, { notify: true, key });
    expect(retried.status, retried.text).toBe(200);
    // The first batch's documents, said to be already published: nothing new was (issue 32 case 6).
    const firstAnswer = bulkUploadPersonalDocumentsAnswer.parse(first.json);
    const repeated = {
      message: 'Nothing new was published: 2 documents were already published.',
      successful: [],
      failed: [],
      alreadyPublished: firstAnswer.successful.map(({ filename, userEmail, title, documentId }) => ({ filename, userEmail, title, documentId })),
      unprocessed: ['stray.pdf'],
      totalProcessed: 2,
      repeated: true,
    };
    expect(retried.json).toEqual(repeated);
    // Even a different body under the same key answers the first batch: the key names the batch.
    const other = await send(`${header}\n${investorA},new.pdf,tax,Other`, [{ name: 'new.pdf', bytes: samplePdf('keyed-other') }], { key });
    expect(other.json).toEqual(repeated);
    expect(await em().count(PersonalDocument, {})).toBe(documents);
    expect(await mailsAfter(outbox)).toEqual([]);
    expect(await tempFiles()).toEqual([]);

    // Another key is another batch: planned again, its rows already published.
    const fresh = bulkUploadPersonalDocumentsAnswer.parse((await send(manifest, files, { key: `${key}-2` })).json);
    expect(fresh.successful).toEqual([]);
    expect(fresh.failed).toEqual([]);
    expect(fresh.alreadyPublished.map((a) => a.filename)).toEqual(['k1.pdf', 'k2.pdf']);
    expect(fresh.repeated).toBeUndefined();
  });

  it('refuses an Idempotency-Key over 200 characters', async () => {
    const res = await send(`${header}\n${investorA},x.pdf,tax,T`, [{ name: 'x.pdf', bytes: samplePdf('long-key') }], { key: 'k'.repeat(201) });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: expect.stringContaining('Idempotency-Key') });
  });

  it("the browser's dry run, fed by the bulk-upload-preview call, foresees what the server then does", async () => {
    const p1 = { name: 'p1.pdf', bytes: samplePdf('preview-1') };
    const files = [p1, { name: 'p2.pdf', bytes: samplePdf('preview-2') }];
    await publish(`${header}\n${investorA},p1.pdf,tax,Preview One`, [p1]);
    const manifest = asSaved(
      `${header}\n${investorA},p1.pdf,tax,Preview One\n${investorB},p2.pdf,tax,Preview Two\nnobody@example.com,p2.pdf,tax,X\n${investorA},p2.pdf,tax,Preview One`,
    );
    const selected = files.map((f) => ({ name: f.name, size: f.bytes.length, sha256: createHash('sha256').update(f.bytes).digest('hex') }));

    const ask = (token: string) =>
      server.api('/api/admin/bulk-upload-preview', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ emails: manifestEmails(manifest), sha256: selected.map((f) => f.sha256) }),
      });
    expect((await ask(investorToken)).status).toBe(403);
    const res = await ask(adminToken);
    expect(res.status).toBe(200);
    const known = bulkUploadPreviewAnswer.parse(await res.json());
    expect(known.users.map((u) => u.email).sort()).toEqual([investorA, investorB].sort());
    expect(known.users.map((u) => u.active)).toEqual([true, true]);
    const preview = planBulkManifest({
      csvText: manifest,
      files: selected,
      ...manifestKnowledgeOf(known.users),
    });
    // The last row names a document investor A has (its title, category and period): it corrects it.
    expect(preview.rows.map((r) => [r.outcome, r.outcome === 'publish' ? (r.corrects?.title ?? null) : null])).toEqual([
      ['already-published', null],
      ['publish', null],
      ['user-not-found', null],
      ['publish', 'Preview One'],
    ]);

    const answer = await publish(manifest, files);
    expect(answer.successful.map((s) => [s.filename, s.corrected ?? false])).toEqual([
      ['p2.pdf', false],
      ['p2.pdf', true],
    ]);
    expect(answer.failed.map((f) => f.error)).toEqual(
      preview.rows.filter((r) => r.outcome !== 'publish' && r.outcome !== 'already-published').map((r) => `Row ${r.row}: ${'error' in r ? r.error : ''}`),
    );
    expect(answer.alreadyPublished.map((a) => a.filename)).toEqual(preview.rows.filter((r) => r.outcome === 'already-published').map((r) => r.filename));
  });

  it("bulk-upload-preview says which investors are active, since only they are e-mailed (issue 32 case 7)", async () => {
    await em().getConnection().execute('update users set is_active = false where email = ?', [investorB]);
    try {
      const res = await client.call('/api/admin/bulk-upload-preview', { body: { emails: [investorA, investorB], sha256: [] }, token: adminToken });
      expect(res.status, res.text).toBe(200);
      const known = bulkUploadPreviewAnswer.parse(res.json);
      expect(Object.fromEntries(known.users.map((u) => [u.email, u.active]))).toEqual({ [investorA]: true, [investorB]: false });
    } finally {
      await em().getConnection().execute('update users set is_active = true where email = ?', [investorB]);
    }
  });

  it('a title reused every quarter is a new document each quarter; only a row of the same period corrects', async () => {
    const title = 'Quarterly Distribution Statement';
    const row = (name: string) => `${header}\n${investorA},${name},financial,${title}`;
    const inQuarter = (quarter: string, part: Part) => publish(row(part.name), [part], { fields: { year: '2026', quarter } });
    const q1 = { name: 'q1.pdf', bytes: samplePdf('distribution Q1') };
    const q2 = { name: 'q2.pdf', bytes: samplePdf('distribution Q2') };
    const q2Fixed = { name: 'q2.pdf', bytes: samplePdf('distribution Q2, fixed') };

    const first = await inQuarter('Q1', q1);
    const second = await inQuarter('Q2', q2);
    expect(second.successful).toEqual([expect.objectContaining({ year: 2026, quarter: 'Q2' })]);
    expect(second.successful[0]?.corrected).toBeUndefined();
    expect(second.successful[0]?.documentId).not.toBe(first.successful[0]?.documentId);

    const statements = async () =>
      em().getConnection().execute<{ id: number; quarter: string; version: number; sha256: string }[]>(
        `select d.id, d.quarter, d.version, f.sha256 from user_documents d join stored_files f on f.id = d.file_id
          join users u on u.id = d.user_id where u.email = ? and d.title = ? order by d.quarter`,
        [investorA, title],
      );
    const sha = (part: Part) => createHash('sha256').update(part.bytes).digest('hex');
    expect((await statements()).map((d) => [d.quarter, d.version, d.sha256])).toEqual([
      ['Q1', 1, sha(q1)],
      ['Q2', 1, sha(q2)],
    ]);

    // Q2's statement sent again, changed: Q2's document gets version 2, Q1's is untouched.
    const corrected = await inQuarter('Q2', q2Fixed);
    expect(corrected.successful).toEqual([expect.objectContaining({ documentId: second.successful[0]?.documentId, corrected: true, quarter: 'Q2' })]);
    expect((await statements()).map((d) => [d.quarter, d.version, d.sha256])).toEqual([
      ['Q1', 1, sha(q1)],
      ['Q2', 2, sha(q2Fixed)],
    ]);
    // Its history lists the versions as they were made: the newest first, and never older than the one before.
    const history = await client.call(`/api/admin/document-versions/personal/${second.successful[0]?.documentId}`, { token: adminToken });
    expect(history.status, history.text).toBe(200);
    const versions = (history.json as { versions: { version: number; uploadedAt: string }[] }).versions;
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(Date.parse(versions[0]!.uploadedAt)).toBeGreaterThanOrEqual(Date.parse(versions[1]!.uploadedAt));
  });

  it('stamps a correction when it is made, never before the version it corrects', async () => {
    const [admin_] = await em().getConnection().execute<{ id: number }[]>('select id from users where email = ?', [admin]);
    const actor: SessionUser = { id: admin_!.id, email: admin, role: 'administrator', session: { id: 'test', expiresAt: new Date(), tokenVersion: 0, secondStep: false } };
    const published = await publish(`${header}\n${investorB},o1.pdf,tax,Stamped K-1,,2026-02-01,`, [{ name: 'o1.pdf', bytes: samplePdf('stamped one') }]);
    const id = published.successful[0]!.documentId;
    await em().transactional(async (tx) => {
      const [document] = await tx.execute<{ file_id: number }[]>('select file_id from user_documents where id = ?', [id]);
      // Version 1 stamped after this transaction began, as by another batch committing meanwhile.
      await tx.execute('select pg_sleep(0.05)');
      await tx.execute("update document_versions set uploaded_at = clock_timestamp() where document_type = 'personal' and document_id = ?", [id]);
      await publishCorrection(tx, 'personal', id, { fileId: document!.file_id, filename: 'o1.pdf' }, actor, '');
    });
    const rows = await em().getConnection().execute<{ version: number; uploaded_at: string }[]>(
      "select version, uploaded_at from document_versions where document_type = 'personal' and document_id = ? order by version",
      [id],
    );
    expect(rows.map((r) => r.version)).toEqual([1, 2]);
    expect(new Date(rows[1]!.uploaded_at).getTime()).toBeGreaterThanOrEqual(new Date(rows[0]!.uploaded_at).getTime());
  });

  it('refuses a row for a deactivated account with a sentence naming it, and publishes nothing for it', async () => {
    await em().getConnection().execute('update users set is_active = false where email = ?', [investorB]);
    try {
      const answer = await publish(`${header}\n${investorB},gone.pdf,tax,Deactivated K-1\n${investorA},kept.pdf,tax,Kept K-1`, [
        { name: 'gone.pdf', bytes: samplePdf('for a deactivated account') },
        { name: 'kept.pdf', bytes: samplePdf('for an active account') },
      ]);
      expect(answer.successful.map((s) => s.filename)).toEqual(['kept.pdf']);
      expect(answer.failed).toEqual([{ filename: 'gone.pdf', error: `Row 2: ${bulkManifestMessages.deactivated(investorB)}` }]);
      expect(await em().count(PersonalDocument, { title: 'Deactivated K-1' })).toBe(0);
    } finally {
      await em().getConnection().execute('update users set is_active = true where email = ?', [investorB]);
    }
  });

  it("takes a manifest saved as Excel's Unicode Text (tab-separated UTF-16LE), NUL bytes and all", async () => {
    const text = `email\tfilename\tdocument_category\ttitle\r\n${investorA}\tutf16.pdf\ttax\tRelevé Unicode\r\n`;
    const form = new FormData();
    form.set('csvManifest', new Blob([new Uint8Array([0xff, 0xfe]), new Uint8Array(Buffer.from(text, 'utf16le'))], { type: 'text/plain' }), 'manifest.csv');
    form.append('documents[]', new Blob([new Uint8Array(samplePdf('utf-16 manifest'))]), 'utf16.pdf');
    form.set('emailNotification', 'false');
    const res = await server.api('/api/admin/bulk-upload-user-documents', { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: form });
    const body = await res.text();
    expect(res.status, body).toBe(200);
    expect(bulkUploadPersonalDocumentsAnswer.parse(JSON.parse(body)).successful.map((s) => [s.filename, s.title])).toEqual([['utf16.pdf', 'Relevé Unicode']]);
  });

  it('refuses investors (403) before reading any file', async () => {
    const res = await send(`${header}\n${investorA},x.pdf,tax,T`, [{ name: 'x.pdf', bytes: samplePdf('stranger') }], {
      token: investorToken,
    });
    expect(res.status).toBe(403);
    expect(await tempFiles()).toEqual([]);
  });
});
