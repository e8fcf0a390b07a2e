import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, loadAverage, pdfOfSize, printFigures, seededDrillData, seconds, storeIntegrity, uploadPropertyDocument } from '../test/drill-kit';
import { ChildServer } from '../test/child-server';
import type { TestDatabase } from '../test/harness';
import { storageFullMessage } from '../src/http/errors';
import { LocalFileStore } from '../src/features/files/local-file-store';

/** The file store's size: the demo files (about 100 kB) and room to spare, filled on purpose below. */
const storeBytes = 16 * 1024 * 1024;

function mountSmallDisk(folder: string): void {
  mkdirSync(folder, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${storeBytes},mode=0755`, 'everest-disk-full-drill', folder], { stdio: 'pipe' });
  } catch (error) {
    const why = (error as { stderr?: Buffer }).stderr?.toString().trim() ?? String(error);
    throw new Error(`The disk-full drill needs a small disk of its own: it mounts a ${storeBytes / 1024 / 1024} MB tmpfs on the file store, which takes root (or CAP_SYS_ADMIN). mount said: ${why}`, { cause: error });
  }
}

const freeBytes = (folder: string) => {
  const fs = statfsSync(folder);
  return fs.bavail * fs.bsize;
};

describe('the disk full during an upload', () => {
  let database: TestDatabase | undefined;
  let dataDir = '';
  let filesDir = '';
  let mounted = false;
  let server: ChildServer | undefined;

  beforeAll(async () => {
    ({ database, dataDir, filesDir } = await seededDrillData('disk-full', (folder) => {
      mountSmallDisk(folder);
      mounted = true;
    }));
    server = await ChildServer.start({ DATABASE_URL: database.url, DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    if (mounted) execFileSync('umount', [filesDir]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  it('answers 507 with a sentence, keeps nothing half-written, serves everyone meanwhile, and takes uploads again once room is freed', async () => {
    if (!server || !database) throw new Error('no server');
    const { url } = server;
    const token = await adminToken(url);
    const auth = { authorization: `Bearer ${token}` };
    const store = new LocalFileStore(filesDir);
    const filesBefore = (await store.list()).map((f) => f.sha256).sort();
    const listBefore = (await (await fetch(`${url}/api/admin/documents`, { headers: auth })).json()) as { documents: { id: number }[] };
    const existing = listBefore.documents[0];
    if (!existing) throw new Error('the demo data has no property document');

    // Everything but 256 kB taken, as by logs or another program on the same disk.
    const filler = `${filesDir}/filler`;
    writeFileSync(filler, Buffer.alloc(freeBytes(filesDir) - 256 * 1024));
    const freeWhenFull = freeBytes(filesDir);

    const started = Date.now();
    const big = pdfOfSize('disk full, single', 2 * 1024 * 1024);
    const single = await uploadPropertyDocument(url, token, 'Disk Full Single', big);
    expect(single.status).toBe(507);
    expect(single.body).toEqual({ error: storageFullMessage });

    // A batch of personal documents stops at the same wall, its first file already received.
    const form = new FormData();
    form.set('csvManifest', new Blob(['email,filename,document_category,title\ninvestor@example.com,a.pdf,tax,Disk Full A\ninvestor2@example.com,b.pdf,tax,Disk Full B']), 'manifest.csv');
    form.append('documents[]', new Blob([new Uint8Array(pdfOfSize('disk full, batch a', 100 * 1024))]), 'a.pdf');
    form.append('documents[]', new Blob([new Uint8Array(pdfOfSize('disk full, batch b', 2 * 1024 * 1024))]), 'b.pdf');
    const batch = await fetch(`${url}/api/admin/bulk-upload-user-documents`, { method: 'POST', headers: auth, body: form });
    expect(batch.status).toBe(507);
    expect(await batch.json()).toEqual({ error: storageFullMessage });
    const refusedAt = Date.now();

    // Meanwhile everything that does not write a file answers as usual.
    const meanwhile = await Promise.all([
      fetch(`${url}/api/properties`).then((r) => r.status),
      fetch(`${url}/api/health/ready`).then((r) => r.status),
      fetch(`${url}/api/admin/documents`, { headers: auth }).then((r) => r.status),
      fetch(`${url}/api/investor/download/${existing.id}`, { headers: auth }).then(async (r) => (await r.arrayBuffer(), r.status)),
      adminToken(url).then(() => 200),
    ]);
    expect(meanwhile).toEqual([200, 200, 200, 200, 200]);

    // Nothing half-written: no row, no new file in the store, no temp file.
    const whenFull = await storeIntegrity(database.url, filesDir);
    expect(whenFull).toEqual({ rowsWithoutFile: 0, filesWithoutRow: 0, tempFiles: 0 });
    expect((await store.list()).map((f) => f.sha256).sort()).toEqual(filesBefore);
    const titles = ((await (await fetch(`${url}/api/admin/documents`, { headers: auth })).json()) as { documents: { title: string }[] }).documents.map((d) => d.title);
    const rowsWhenFull = titles.filter((t) => t.startsWith('Disk Full')).length;
    expect(rowsWhenFull).toBe(0);

    // Room freed: the same uploads go through, and the file comes back whole.
    rmSync(filler);
    const small = await uploadPropertyDocument(url, token, 'Disk Full Small After', pdfOfSize('after, small', 10 * 1024));
    expect(small.status).toBe(200);
    const again = await uploadPropertyDocument(url, token, 'Disk Full Single', big);
    expect(again.status).toBe(200);
    const download = await fetch(`${url}/api/investor/download/${again.body.document?.id}`, { headers: auth });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(big)).toBe(true);
    const after = await storeIntegrity(database.url, filesDir);
    expect(after).toEqual({ rowsWithoutFile: 0, filesWithoutRow: 0, tempFiles: 0 });

    // One process throughout, which said what happened, once per refusal, without a stack trace.
    expect(server.process.exitCode).toBeNull();
    const errors = server.lines().filter((line) => line.level === 'error');
    expect(errors.map((line) => line.msg)).toEqual([
      'storage full: POST /api/admin/upload-document answered 507 (ENOSPC)',
      'storage full: POST /api/admin/bulk-upload-user-documents answered 507 (ENOSPC)',
    ]);

    printFigures('Faults · disk full during an upload', {
      'file store': `${storeBytes / 1024 / 1024} MB tmpfs, ${Math.round(freeWhenFull / 1024)} kB free when full`,
      'uploads refused (2 MB single, 2-file batch)': `${single.status}, ${batch.status}`,
      'answer': storageFullMessage,
      'time to both refusals': seconds(refusedAt - started),
      'rows written / files without row / temp files left, while full': `${rowsWhenFull} / ${whenFull.filesWithoutRow} / ${whenFull.tempFiles}`,
      'other calls while full (list, ready, admin list, download, sign-in)': meanwhile.join(' '),
      'uploads after room freed (10 kB, 2 MB)': `${small.status}, ${again.status}`,
      'server restarted': 'no',
      'load (1/5/15 min)': loadAverage(),
    });
  });
});
