import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildServer } from '../../test/child-server';
import { adminToken, pdfOfSize, seededDrillData, storeIntegrity, uploadPropertyDocument } from '../../test/drill-kit';
import { startTestServer, type TestDatabase } from '../../test/harness';

const boundary = 'client-abort-boundary';

function part(name: string, filename: string | null, bytes: Buffer): Buffer {
  const disposition = `form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}`;
  return Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`), bytes, Buffer.from('\r\n')]);
}

/** Sends the start of a multipart upload that announces more, then goes away as a closed tab does. */
async function abandonUpload(url: string, route: string, token: string, head: Buffer, waitFor: () => Promise<boolean>): Promise<void> {
  const req = request(`${url}${route}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + 4 * 1024 * 1024),
    },
  });
  req.on('error', () => undefined);
  req.write(head);
  const deadline = Date.now() + 20_000;
  while (!(await waitFor())) {
    if (Date.now() > deadline) throw new Error('the upload never reached the server');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  req.destroy();
}

describe('clients that go away in the middle', () => {
  let database: TestDatabase | undefined;
  let dataDir = '';
  let filesDir = '';
  let server: ChildServer | undefined;

  beforeAll(async () => {
    ({ database, dataDir, filesDir } = await seededDrillData('client-aborts'));
    server = await ChildServer.start({ DATABASE_URL: database.url, DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  const tempFiles = async () => database ? (await storeIntegrity(database.url, filesDir)).tempFiles : 0;

  it('survives an abandoned batch upload, leaving no temp file behind', async () => {
    if (!server) throw new Error('no server');
    const token = await adminToken(server.url);
    const manifest = 'email,filename,document_category,title\ninvestor@example.com,a.pdf,tax,Abandoned A\ninvestor2@example.com,b.pdf,tax,Abandoned B';
    await abandonUpload(
      server.url,
      '/api/admin/bulk-upload-user-documents',
      token,
      Buffer.concat([
        part('csvManifest', 'manifest.csv', Buffer.from(manifest)),
        part('documents[]', 'a.pdf', pdfOfSize('abandoned a', 10 * 1024)),
        part('documents[]', 'b.pdf', pdfOfSize('abandoned b', 2 * 1024 * 1024)).subarray(0, 512 * 1024),
      ]),
      async () => (await tempFiles()) === 2,
    );
    await expect.poll(tempFiles, { timeout: 10_000 }).toBe(0);
    expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(200);
    expect(server.process.exitCode).toBeNull();
  });

  it('logs an abandoned upload and a cancelled download as the client going away, not as an error of ours', async () => {
    if (!server) throw new Error('no server');
    const { url } = server;
    const token = await adminToken(url);
    const big = pdfOfSize('cancelled download', 9 * 1024 * 1024);
    const uploaded = await uploadPropertyDocument(url, token, 'Cancelled Download', big);
    expect(uploaded.status).toBe(200);

    await abandonUpload(
      url,
      '/api/admin/upload-document',
      token,
      Buffer.concat([part('title', null, Buffer.from('Abandoned Single')), part('document', 'single.pdf', pdfOfSize('abandoned single', 2 * 1024 * 1024)).subarray(0, 512 * 1024)]),
      async () => (await tempFiles()) === 1,
    );
    await expect.poll(tempFiles, { timeout: 10_000 }).toBe(0);

    // A closed tab: the first bytes read, then the connection dropped.
    await new Promise<void>((resolve, reject) => {
      const req = request(`${url}/api/investor/download/${uploaded.body.document?.id}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.once('error', reject);
      req.end();
    });
    const download = await fetch(`${url}/api/investor/download/${uploaded.body.document?.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(Buffer.from(await download.arrayBuffer()).equals(big)).toBe(true);

    await expect.poll(() => server?.lines().filter((line) => line.path === '/api/investor/download/' + uploaded.body.document?.id).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(server.lines().filter((line) => line.level === 'error')).toEqual([]);
    const wentAway = server.lines().filter((line) => String(line.msg).startsWith('client went away'));
    expect(wentAway.every((line) => line.level === 'info')).toBe(true);
    expect(wentAway.map((line) => String(line.msg))).toEqual(
      expect.arrayContaining([expect.stringContaining('POST /api/admin/upload-document'), expect.stringContaining(`GET /api/investor/download/${uploaded.body.document?.id}`)]),
    );
    expect(server.process.exitCode).toBeNull();
  });
});

// Koa streams a file answer through stream.pipeline, which says 'Premature close'
// (ERR_STREAM_PREMATURE_CLOSE) when the connection closes under it: the client's doing, not ours.
describe('a client that closes in the middle of a streamed file', () => {
  it('is logged at info as the client going away, never as an error', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'everest-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'large.js'), Buffer.alloc(8 * 1024 * 1024, 0x20));
    const lines: Record<string, unknown>[] = [];
    const logTo = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        callback();
      },
    });
    const server = await startTestServer({ webDist: dist, env: { LOG_LEVEL: 'info' }, logTo });
    try {
      await new Promise<void>((resolve, reject) => {
        // No Accept-Encoding: the file itself, streamed, not a copy compressed in advance.
        const req = request(`${server.url}/assets/large.js`, (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', () => undefined);
        req.once('error', reject);
        req.end();
      });
      await expect.poll(() => lines.some((line) => String(line.msg).startsWith('client went away')), { timeout: 10_000 }).toBe(true);
      expect(lines.filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([]);
      const wentAway = lines.filter((line) => String(line.msg).startsWith('client went away'));
      expect(wentAway.every((line) => line.level === 'info')).toBe(true);
      expect(wentAway.map((line) => line.msg)).toContain('client went away before the answer was complete: GET /assets/large.js (ERR_STREAM_PREMATURE_CLOSE)');
      await expect.poll(() => lines.find((line) => line.msg === 'request' && line.path === '/assets/large.js'), { timeout: 10_000 }).toMatchObject({ level: 'info', aborted: true });
    } finally {
      await server.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
