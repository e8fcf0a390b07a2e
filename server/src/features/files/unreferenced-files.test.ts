import { createHash } from 'node:crypto';
import { utimes } from 'node:fs/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAnswer, personalDocumentAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { LocalFileStore } from './local-file-store';
import { documentTypes } from './sniff';
import { samplePdf } from '../../../test/sample-documents';
import { sweepUnreferencedFiles } from './unreferenced-files';

const hour = 60 * 60_000;
const admin = 'admin@example.com';

describe('sweepUnreferencedFiles', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let adminToken = '';

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    adminToken = await client.signIn(admin);
  });
  afterAll(() => server.close());

  const em = () => server.services.orm.em.fork();
  const store = () => server.services.files;
  const sweep = () => sweepUnreferencedFiles(em(), store(), hour);
  const onDisk = (bytes: Buffer) => store().exists(sha256Of(bytes));
  const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const rowOf = async (bytes: Buffer) =>
    (await em().execute<{ id: number }[]>('select id from stored_files where sha256 = ?', [sha256Of(bytes)]))[0] ?? null;

  /** Everything stored so far as if stored two hours ago: rows and files alike. */
  async function ageEverything(): Promise<void> {
    await em().execute(`update stored_files set created_at = now() - interval '2 hours'`);
    const twoHoursAgo = new Date(Date.now() - 2 * hour);
    const local = store();
    // Ages files by their mtime: a test of the folder store (the S3 store's own test covers its ages).
    if (!(local instanceof LocalFileStore)) throw new Error('this test ages files on a local disk');
    for (const file of await local.list()) await utimes(local.pathOf(file.sha256), twoHoursAgo, twoHoursAgo);
  }

  async function form(route: string, fill: (form: FormData) => void) {
    const body = new FormData();
    fill(body);
    const res = await server.api(route, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as unknown;
  }
  const blob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);

  async function uploadPersonalDocument(title: string, bytes: Buffer) {
    return personalDocumentAnswer.parse(
      await form('/api/admin/upload-user-document', (f) => {
        f.set('userEmail', 'investor@example.com');
        f.set('documentCategory', 'tax');
        f.set('title', title);
        f.set('document', blob(bytes), 'doc.pdf');
      }),
    ).document;
  }

  /** Every document row and property photo with its file on disk. */
  async function referencesWithoutFile(): Promise<string[]> {
    const rows = await em().execute<{ sha256: string }[]>(
      `select f.sha256 from property_documents d join stored_files f on f.id = d.file_id
       union select f.sha256 from user_documents d join stored_files f on f.id = d.file_id
       union select substring(p.image from '/media/([0-9a-f]{64})') from properties p where p.image is not null`,
    );
    expect(rows.length).toBeGreaterThan(10);
    const missing = await Promise.all(rows.map(async (r) => ((await store().exists(r.sha256)) ? null : r.sha256)));
    return missing.filter((sha) => sha !== null);
  }

  it("removes the files of a deleted document, and keeps every file still named, a corrected document's earlier version too", async () => {
    const deletedBytes = samplePdf('sweep: deleted');
    const deleted = await uploadPersonalDocument('Sweep Deleted', deletedBytes);
    const res = await client.call('/api/admin/delete-user-document', { token: adminToken, body: { documentId: deleted.id } });
    expect(res.status, res.text).toBe(200);

    const oldBytes = samplePdf('sweep: replaced');
    const newBytes = samplePdf('sweep: replacement');
    const replaced = documentAnswer.parse(
      await form('/api/admin/upload-document', (f) => {
        f.set('title', 'Sweep Replaced');
        f.set('property', 'General');
        f.set('year', '2025');
        f.set('quarter', 'Q1');
        f.set('document', blob(oldBytes), 'old.pdf');
      }),
    ).document;
    await form(`/api/admin/replace-document/${replaced.id}`, (f) => f.set('document', blob(newBytes), 'new.pdf'));

    // Not yet an hour old: left alone.
    expect(await sweep()).toEqual({ rows: 0, files: 0 });
    expect(await onDisk(deletedBytes)).toBe(true);

    await ageEverything();
    expect(await sweep()).toEqual({ rows: 1, files: 1 });
    expect(await onDisk(deletedBytes)).toBe(false);
    // Version 1 of the corrected document: administrators still download it (issue 21).
    expect(await onDisk(oldBytes)).toBe(true);
    expect(await rowOf(deletedBytes)).toBeNull();
    expect(await onDisk(newBytes)).toBe(true);
    expect(await referencesWithoutFile()).toEqual([]);
    const download = await server.api(`/api/investor/download/${replaced.id}`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(Buffer.from(await download.arrayBuffer()).equals(newBytes)).toBe(true);
    expect(await sweep()).toEqual({ rows: 0, files: 0 });
  });

  it('keeps the file when the same bytes were just stored again by an upload that has not written its row yet', async () => {
    const bytes = samplePdf('sweep: uploaded again');
    const document = await uploadPersonalDocument('Sweep Again', bytes);
    await client.call('/api/admin/delete-user-document', { token: adminToken, body: { documentId: document.id } });
    await ageEverything();
    // The upload of the same bytes has moved its fresh file into place, its transaction still to come.
    await store().put(Readable.from([bytes]), { maxBytes: 1e6, accept: documentTypes, tooLargeMessage: '', wrongTypeMessage: '' });

    expect(await sweep()).toEqual({ rows: 1, files: 0 });
    expect(await onDisk(bytes)).toBe(true);
    // Its transaction then makes the row anew, and the document downloads.
    const again = await uploadPersonalDocument('Sweep Again', bytes);
    const res = await server.api(`/api/investor/download/${again.id}?type=user`, {
      headers: { authorization: `Bearer ${await client.signIn('investor@example.com')}` },
    });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('keeps a row that a document committed between the look and the delete now names', async () => {
    const bytes = samplePdf('sweep: raced');
    const document = await uploadPersonalDocument('Sweep Raced', bytes);
    await client.call('/api/admin/delete-user-document', { token: adminToken, body: { documentId: document.id } });
    await ageEverything();
    const fileId = (await rowOf(bytes))?.id;

    // Another connection publishes a document naming the row, and holds its transaction open.
    const other = new pg.Client({ connectionString: server.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(
        `insert into user_documents (user_id, title, document_category, year, quarter, filename, file_id, uploaded_at)
         select id, 'Sweep Raced Again', 'tax', 2025, 'Q1', 'raced.pdf', $1, now() from users where email = 'investor@example.com'`,
        [fileId],
      );
      const sweeping = sweep();
      // The sweep's delete waits on the row the new document's foreign key holds.
      await until(async () => {
        const [row] = await em().execute<{ waiting: string }[]>(
          `select count(*) as waiting from pg_stat_activity where wait_event_type = 'Lock' and query like 'delete from stored_files%'`,
        );
        return Number(row?.waiting) > 0;
      });
      await other.query('commit');
      expect(await sweeping).toEqual({ rows: 0, files: 0 });
    } finally {
      await other.end();
    }
    expect(await rowOf(bytes)).not.toBeNull();
    expect(await onDisk(bytes)).toBe(true);
    expect(await referencesWithoutFile()).toEqual([]);
  });

  it('removes an old file that no row names (an upload killed between keeping it and its row), not a fresh one', async () => {
    const bytes = samplePdf('sweep: orphan');
    await store().put(Readable.from([bytes]), { maxBytes: 1e6, accept: documentTypes, tooLargeMessage: '', wrongTypeMessage: '' });
    expect(await sweep()).toEqual({ rows: 0, files: 0 });
    expect(await onDisk(bytes)).toBe(true);
    await ageEverything();
    expect(await sweep()).toEqual({ rows: 0, files: 1 });
    expect(await onDisk(bytes)).toBe(false);
    expect(await referencesWithoutFile()).toEqual([]);
  });
});

/** Looks again each time the event loop turns until `done` answers true (a state, not a time). */
async function until(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
