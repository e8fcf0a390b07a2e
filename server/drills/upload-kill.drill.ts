import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { readdir, utimes } from 'node:fs/promises';
import { request, type ClientRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildServer } from '../test/child-server';
import { adminToken, loadAverage, pdfOfSize, printFigures, seededDrillData, seconds, storeIntegrity } from '../test/drill-kit';
import type { TestDatabase } from '../test/harness';
import { LocalFileStore } from '../src/features/files/local-file-store';

const boundary = 'kill-drill-50-boundary';
const chunkBytes = 64 * 1024;

/** How an upload sends its file: at once, paced, or half of it and then nothing until the kill. */
type Pace = 'fast' | 'paced' | 'held';

interface Upload {
  title: string;
  bytes: Buffer;
  pace: Pace;
  req: ClientRequest | null;
  status: number | null;
  documentId: number | null;
}

function formHead(title: string): Buffer {
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return Buffer.from(
    field('title', title) + field('property', 'General') + field('year', '2025') + field('quarter', 'Q2') +
      `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="${title.replace(/\W+/g, '-')}.pdf"\r\n\r\n`,
  );
}

/** Streams one upload as a browser on a slow line would, keeping its answer when there is one. */
function send(url: string, token: string, upload: Upload, stopped: () => boolean): void {
  const head = formHead(upload.title);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = request(`${url}/api/admin/upload-document`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + upload.bytes.length + tail.length),
    },
  });
  upload.req = req;
  // The killed server cuts the connection: that is the point of the drill.
  req.on('error', () => undefined);
  req.on('response', (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => {
      upload.status = res.statusCode ?? 0;
      if (upload.status === 200) upload.documentId = (JSON.parse(Buffer.concat(chunks).toString()) as { document: { id: number } }).document.id;
    });
    res.on('error', () => undefined);
  });
  req.write(head);
  void (async () => {
    const until = upload.pace === 'held' ? Math.floor(upload.bytes.length / 2) : upload.bytes.length;
    for (let at = 0; at < until && !stopped(); at += chunkBytes) {
      req.write(upload.bytes.subarray(at, Math.min(at + chunkBytes, until)));
      await new Promise((resolve) => setTimeout(resolve, upload.pace === 'fast' ? 0 : 40));
    }
    if (upload.pace !== 'held' && !stopped()) req.end(tail);
  })();
}

describe('the server killed with SIGKILL during 50 concurrent uploads', () => {
  let database: TestDatabase | undefined;
  let dataDir = '';
  let filesDir = '';
  let env: Record<string, string> = {};
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    ({ database, dataDir, filesDir } = await seededDrillData('kill-50'));
    env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  it('leaves no row without its file, and after the restart and its sweep no file without a row and no temp file; every acknowledged upload is whole', async () => {
    if (!database) throw new Error('no database');
    const first = await ChildServer.start(env);
    servers.push(first);
    const token = await adminToken(first.url);
    const tmpDir = path.join(filesDir, 'tmp');
    const tempCount = async () => (await readdir(tmpDir).catch(() => [] as string[])).length;

    // 20 small files sent at once, 20 of 1-3 MB paced over seconds, 10 that stop halfway.
    const uploads: Upload[] = Array.from({ length: 50 }, (_, i) => {
      const pace: Pace = i % 5 === 4 ? 'held' : i % 5 < 2 ? 'fast' : 'paced';
      const size = pace === 'fast' ? 100 * 1024 + i * 8 * 1024 : 1024 * 1024 + (i % 3) * 1024 * 1024;
      return { title: `Kill Drill ${i}`, bytes: pdfOfSize(`kill drill ${i}`, size), pace, req: null, status: null, documentId: null };
    });
    let killed = false;
    const started = Date.now();
    for (const upload of uploads) send(first.url, token, upload, () => killed);

    // The kill lands when some uploads are acknowledged and others are streaming into temp files.
    const deadline = Date.now() + 120_000;
    let tempAtKill: number;
    for (;;) {
      tempAtKill = await tempCount();
      if (uploads.filter((u) => u.status !== null).length >= 10 && tempAtKill >= 10) break;
      if (Date.now() > deadline) throw new Error('the uploads never reached the state to kill in');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await first.kill();
    killed = true;
    const killedAt = Date.now();
    for (const upload of uploads) upload.req?.destroy();

    const acknowledged = uploads.filter((u) => u.status === 200);
    const refused = uploads.filter((u) => u.status !== null && u.status !== 200);
    const cutOff = uploads.filter((u) => u.status === null);
    expect(refused.map((u) => `${u.title}: ${u.status}`)).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(10);
    // Right after the kill: the rule that a row is written only after its file holds already.
    const atKill = await storeIntegrity(database.url, filesDir);
    expect(atKill.rowsWithoutFile).toBe(0);

    // The start-up sweep removes only what no live request can still be writing (temp files 10
    // minutes old, unnamed files an hour old): as if the machine came back two hours later.
    const store = new LocalFileStore(filesDir);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
    for (const name of await readdir(tmpDir).catch(() => [] as string[])) await utimes(path.join(tmpDir, name), twoHoursAgo, twoHoursAgo);
    for (const file of await store.list()) await utimes(store.pathOf(file.sha256), twoHoursAgo, twoHoursAgo);

    const restartAt = Date.now();
    const second = await ChildServer.start(env);
    servers.push(second);
    const restarted = Date.now();
    const afterSweep = await storeIntegrity(database.url, filesDir);
    expect(afterSweep).toEqual({ rowsWithoutFile: 0, filesWithoutRow: 0, tempFiles: 0 });

    // Every upload that was answered 200 is there, whole; none that was cut off is.
    const secondToken = await adminToken(second.url);
    const listed = ((await (await fetch(`${second.url}/api/admin/documents`, { headers: { authorization: `Bearer ${secondToken}` } })).json()) as { documents: { id: number; title: string }[] }).documents;
    const titles = new Set(listed.map((d) => d.title));
    expect(acknowledged.filter((u) => !titles.has(u.title)).map((u) => u.title)).toEqual([]);
    const cutOffButListed = cutOff.filter((u) => titles.has(u.title)).length;
    for (const upload of acknowledged) {
      const res = await fetch(`${second.url}/api/investor/download/${upload.documentId}`, { headers: { authorization: `Bearer ${secondToken}` } });
      expect(res.status).toBe(200);
      const sha = createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex');
      expect(sha).toBe(createHash('sha256').update(upload.bytes).digest('hex'));
    }

    // And it takes uploads as before: the cut-off ones sent again go through.
    for (const upload of cutOff.slice(0, 5)) {
      const form = new FormData();
      for (const [name, value] of [['title', upload.title], ['property', 'General'], ['year', '2025'], ['quarter', 'Q2']] as const) form.set(name, value);
      form.set('document', new Blob([new Uint8Array(upload.bytes)]), 'again.pdf');
      const res = await fetch(`${second.url}/api/admin/upload-document`, { method: 'POST', headers: { authorization: `Bearer ${secondToken}` }, body: form });
      expect(res.status).toBe(200);
    }
    expect(await storeIntegrity(database.url, filesDir)).toEqual({ rowsWithoutFile: 0, filesWithoutRow: 0, tempFiles: 0 });

    printFigures('Faults · SIGKILL during 50 concurrent uploads', {
      'uploads (20 fast 100-250 kB, 20 paced 1-3 MB, 10 held halfway)': uploads.length,
      'killed after': seconds(killedAt - started),
      'answered 200 before the kill / refused / cut off': `${acknowledged.length} / ${refused.length} / ${cutOff.length}`,
      'temp files at the kill': tempAtKill,
      'at the kill: rows without files / files without rows / temp files': `${atKill.rowsWithoutFile} / ${atKill.filesWithoutRow} / ${atKill.tempFiles}`,
      'after restart and sweep (files aged 2 h): rows without files / files without rows / temp files': `${afterSweep.rowsWithoutFile} / ${afterSweep.filesWithoutRow} / ${afterSweep.tempFiles}`,
      'acknowledged uploads whole after restart': `${acknowledged.length} of ${acknowledged.length}`,
      'cut-off uploads that became documents': cutOffButListed,
      'restart to first answer': seconds(restarted - restartAt),
      'load (1/5/15 min)': loadAverage(),
    });
  });
});
