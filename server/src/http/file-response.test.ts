import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../features/files/local-file-store';
import { createLogger } from '../logger';
import { errorHandler } from './errors';
import { sendStoredFile } from './file-response';

// Larger than the reused buffers together (4 × 256 KiB) and not a multiple of them, so that
// reuse, the last partial buffer and ranges across buffer edges are all exercised.
const bytes = randomBytes(3 * 1024 * 1024 + 12_345);
bytes.write('%PDF-1.7\n', 0);

describe('sendStoredFile', () => {
  let dir: string;
  let server: Server;
  let url: string;
  const reads: string[] = [];
  let failRead = false;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'file-response-'));
    const files = new LocalFileStore(dir);
    const { sha256 } = await files.put(Readable.from([bytes]), {
      maxBytes: bytes.length,
      accept: ['application/pdf'],
      tooLargeMessage: 'too large',
      wrongTypeMessage: 'wrong type',
    });
    const app = new Koa();
    app.silent = true;
    app.use(errorHandler(createLogger('silent')));
    app.use(async (ctx) => {
      const opened = await files.open(sha256);
      if (!opened) throw new Error('the stored file is gone');
      await sendStoredFile(ctx, opened, {
        filename: 'Q1 report.pdf',
        contentType: 'application/pdf',
        disposition: 'attachment',
        onRead: async ({ ranged }) => {
          if (failRead) throw new Error('audit failed');
          reads.push(ranged ? `${ctx.get('Range')} ranged` : 'whole');
        },
      });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the whole file, byte for byte, with its length', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('sends a range that crosses buffer edges exactly', async () => {
    const start = 256 * 1024 - 7;
    const end = 3 * 256 * 1024 + 99;
    const res = await fetch(url, { headers: { range: `bytes=${start}-${end}` } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${bytes.length}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(true);
  });

  it('tells every GET that serves content, a range from any byte too, whether it was ranged; a HEAD not at all', async () => {
    reads.length = 0;
    await (await fetch(url, { headers: { range: 'bytes=0-99' } })).arrayBuffer();
    // Issue 33: the whole file but its first byte was a read nobody counted.
    await (await fetch(url, { headers: { range: 'bytes=1-' } })).arrayBuffer();
    await (await fetch(url)).arrayBuffer();
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(reads).toEqual(['bytes=0-99 ranged', 'bytes=1- ranged', 'whole']);
  });

  it('sends nothing when the read cannot be recorded', async () => {
    failRead = true;
    try {
      const res = await fetch(url);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/json/);
    } finally {
      failRead = false;
    }
  });

  it('survives a client that hangs up mid-transfer, and goes on serving', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = request(url, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
      req.end();
    });
    const res = await fetch(url);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
