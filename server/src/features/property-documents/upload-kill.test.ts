import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, stat, utimes } from 'node:fs/promises';
import { request, type ClientRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '@everest/fixtures';
import { ChildServer } from '../../../test/child-server';
import { createTestDatabase, type TestDatabase } from '../../../test/harness';
import { openOrm } from '../../db/orm';
import { seedDemoData } from '../../db/seed';
import { LocalFileStore } from '../files/local-file-store';
import { samplePdf } from '../../../test/sample-documents';

const boundary = 'kill-drill-boundary';

function part(name: string, filename: string | null, bytes: Buffer): Buffer {
  const disposition = `form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}`;
  return Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`), bytes, Buffer.from('\r\n')]);
}

/** A 4 MB PDF whose first bytes make it one; only the start of it is ever sent. */
function largePdf(seed: string): Buffer {
  const bytes = Buffer.alloc(4 * 1024 * 1024, 0x20);
  samplePdf(seed).copy(bytes);
  return bytes;
}

/** Sends a multipart request's first bytes (of `length`), and never the rest when they are fewer: an upload in the middle of its stream. */
function startUpload(
  url: string,
  route: string,
  token: string,
  head: Buffer,
  length = head.length + 8 * 1024 * 1024,
  idempotencyKey?: string,
): ClientRequest {
  const req = request(`${url}${route}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(length),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
  });
  // The killed server cuts the connection: that is the point, not a failure of the test.
  req.on('error', () => undefined);
  req.write(head);
  return req;
}

/** Waits for a state of the file system, looking again each time the event loop turns. */
async function until<T>(look: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await look();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('a server killed in the middle of uploads', () => {
  let database: TestDatabase;
  let dataDir = '';
  let env: Record<string, string> = {};
  const running: ChildServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-kill-'));
    chmodSync(dataDir, 0o755);
    // The demo administrator uploads without a second step, as in every test (auth/README.md).
    env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
    const orm = await openOrm(database.url);
    await seedDemoData(orm.em.fork(), new LocalFileStore(path.join(dataDir, 'files')));
    await orm.close(true);
  });
  afterAll(async () => {
    for (const server of running) await server.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const tmpDir = () => path.join(dataDir, 'files', 'tmp');
  const tempFiles = async () => {
    const names = await readdir(tmpDir()).catch(() => [] as string[]);
    const sizes = await Promise.all(names.map(async (name) => (await stat(path.join(tmpDir(), name)).catch(() => null))?.size ?? 0));
    return names.map((name, i) => ({ name, size: sizes[i] ?? 0 }));
  };

  async function signIn(url: string): Promise<string> {
    const res = await fetch(`${url}/api/investor/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: demoPassword }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { token: string }).token;
  }

  /** Every document row with its stored file on disk: the rule a kill must never break. */
  async function documentsWithoutFile(): Promise<string[]> {
    const orm = await openOrm(database.url);
    try {
      const rows = await orm.em.fork().execute<{ title: string; sha256: string }[]>(
        `select d.title, f.sha256 from property_documents d join stored_files f on f.id = d.file_id
         union all
         select d.title, f.sha256 from user_documents d join stored_files f on f.id = d.file_id`,
      );
      expect(rows.length).toBeGreaterThan(0);
      const store = new LocalFileStore(path.join(dataDir, 'files'));
      const missing = await Promise.all(rows.map(async (row) => ((await store.exists(row.sha256)) ? null : row.title)));
      return missing.filter((title) => title !== null);
    } finally {
      await orm.close(true);
    }
  }

  async function titled(title: string): Promise<number> {
    const orm = await openOrm(database.url);
    try {
      const [row] = await orm.em.fork().execute<{ count: string }[]>(
        `select count(*) as count from (select title from property_documents union all select title from user_documents) d where d.title like ?`,
        [`${title}%`],
      );
      return Number(row?.count);
    } finally {
      await orm.close(true);
    }
  }

  it('leaves no row without its file, and the next start removes the cut-off temp files and the kept file no row names', async () => {
    const first = await ChildServer.start(env);
    running.push(first);
    const token = await signIn(first.url);

    // A batch that has received and kept its file and opened the transaction that writes its rows,
    // held there by the lock its Idempotency-Key takes first thing in it: the kill lands between the
    // file being safe and the row being committed.
    const lockedBytes = samplePdf('killed while committing');
    const keptPath = new LocalFileStore(path.join(dataDir, 'files')).pathOf(createHash('sha256').update(lockedBytes).digest('hex'));
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query(
      `select pg_advisory_xact_lock(hashtext('bulk-upload:' || (select id from users where email = 'admin@example.com') || ':kill-drill'))`,
    );
    const lockedBody = Buffer.concat([
      part('csvManifest', 'manifest.csv', Buffer.from('email,filename,document_category,title\ninvestor2@example.com,locked.pdf,tax,Killed Locked')),
      part('documents[]', 'locked.pdf', lockedBytes),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const locked = startUpload(first.url, '/api/admin/bulk-upload-user-documents', token, lockedBody, lockedBody.length, 'kill-drill');
    // Watched from a connection of its own: inside a transaction, pg_stat_activity answers one snapshot.
    const watcher = new pg.Client({ connectionString: database.url });
    await watcher.connect();
    await until(
      async () =>
        (await watcher.query(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%pg_advisory_xact_lock%'`))
          .rows[0] as { n: number },
      (row) => row.n > 0,
      'the batch to wait for its lock inside its transaction',
    );
    await watcher.end();
    expect(existsSync(keptPath)).toBe(true);

    // A single upload cut off after 1 MB of its file.
    const single = startUpload(
      first.url,
      '/api/admin/upload-document',
      token,
      Buffer.concat([
        part('title', null, Buffer.from('Killed Single')),
        part('property', null, Buffer.from('General')),
        part('year', null, Buffer.from('2025')),
        part('quarter', null, Buffer.from('Q1')),
        part('document', 'killed.pdf', largePdf('killed single')).subarray(0, 1024 * 1024),
      ]),
    );
    // A batch whose first two files arrived whole and whose third is cut off after 1 MB.
    const manifest = [
      'email,filename,document_category,title',
      'investor@example.com,b1.pdf,tax,Killed Bulk 1',
      'investor2@example.com,b2.pdf,tax,Killed Bulk 2',
      'investor@example.com,b3.pdf,tax,Killed Bulk 3',
    ].join('\n');
    const bulk = startUpload(
      first.url,
      '/api/admin/bulk-upload-user-documents',
      token,
      Buffer.concat([
        part('emailNotification', null, Buffer.from('true')),
        part('csvManifest', 'manifest.csv', Buffer.from(manifest)),
        part('documents[]', 'b1.pdf', samplePdf('killed bulk 1')),
        part('documents[]', 'b2.pdf', samplePdf('killed bulk 2')),
        part('documents[]', 'b3.pdf', largePdf('killed bulk 3')).subarray(0, 1024 * 1024),
      ]),
    );

    // Both uploads are mid-stream: four temp files, the two cut-off ones holding part of their bytes.
    const inFlight = await until(
      tempFiles,
      (files) => files.length === 4 && files.filter((f) => f.size >= 512 * 1024).length === 2,
      'both uploads to be streaming into temp files',
    );
    await first.kill();
    single.destroy();
    bulk.destroy();
    locked.destroy();
    await holder.query('rollback');
    await holder.end();

    expect(await titled('Killed')).toBe(0);
    expect(await documentsWithoutFile()).toEqual([]);
    expect((await tempFiles()).map((f) => f.name).sort()).toEqual(inFlight.map((f) => f.name).sort());

    // The start-up sweep removes temp files older than any request can live (another instance
    // sharing the store may be receiving one right now): as if the restart came that much later.
    const longAgo = new Date(Date.now() - 11 * 60_000);
    for (const file of inFlight) await utimes(path.join(tmpDir(), file.name), longAgo, longAgo);
    // The kept file no row names is left for an hour (an upload may be between the two); as if that passed.
    expect(existsSync(keptPath)).toBe(true);
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
    await utimes(keptPath, hoursAgo, hoursAgo);

    const second = await ChildServer.start(env);
    running.push(second);
    expect(await tempFiles()).toEqual([]);
    expect(await documentsWithoutFile()).toEqual([]);
    expect(await titled('Killed')).toBe(0);
    expect(existsSync(keptPath)).toBe(false);

    // And it works as before: the batch sent again in full is published, files and all.
    const form = new FormData();
    form.set('csvManifest', new Blob([manifest]), 'manifest.csv');
    for (const name of ['b1', 'b2', 'b3']) form.append('documents[]', new Blob([new Uint8Array(samplePdf(`killed bulk ${name.slice(1)}`))]), `${name}.pdf`);
    const res = await fetch(`${second.url}/api/admin/bulk-upload-user-documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await signIn(second.url)}` },
      body: form,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await titled('Killed Bulk')).toBe(3);
    expect(await documentsWithoutFile()).toEqual([]);
    expect(await tempFiles()).toEqual([]);
  });
});
