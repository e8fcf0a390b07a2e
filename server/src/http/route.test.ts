import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@everest/core/contract';
import { LocalFileStore } from '../features/files/local-file-store';
import { documentTypes } from '../features/files/sniff';
import { samplePdf } from '../../test/sample-documents';
import { errorHandler, HttpError } from './errors';
import type { BatchUploadRule } from './multipart';
import { bind } from './route';
import { createLogger } from '../logger';
import type { AppState } from './state';

describe('a route’s effects', () => {
  const acted: string[] = [];
  let http: ReturnType<Koa['listen']>;
  let base = '';

  beforeAll(async () => {
    const app = new Koa<AppState>();
    app.use(errorHandler(createLogger('silent')));
    app.use((ctx, next) => {
      ctx.state.user = null;
      const act = (effect: string) => () => acted.push(effect);
      ctx.state.effects = {
        'ends-sessions': act('ends-sessions'),
        'queues-mail': act('queues-mail'),
        'changes-documents': act('changes-documents'),
        'changes-users': act('changes-users'),
        'changes-shares': act('changes-shares'),
      };
      return next();
    });
    const router = new Router<AppState>();
    // Any public line of the table will do: what is tested is bind's own behaviour.
    bind(
      router,
      routes.health,
      async ({ ctx }) => {
        acted.push('answered');
        if (ctx.query.fail) throw new HttpError(409, 'Refused after the commit.');
        return { status: 'ok', database: 'ok' } as const;
      },
      { effects: ['ends-sessions', 'queues-mail'] },
    );
    app.use(router.routes());
    http = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => http.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('acts on each effect once the handler is done, and after a failure too', async () => {
    acted.length = 0;
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect(acted).toEqual(['answered', 'ends-sessions', 'queues-mail']);

    acted.length = 0;
    expect((await fetch(`${base}/api/health?fail=1`)).status).toBe(409);
    expect(acted).toEqual(['answered', 'ends-sessions', 'queues-mail']);
  });
});

describe('a batch route', () => {
  const store = new LocalFileStore(mkdtempSync(path.join(os.tmpdir(), 'everest-route-')));
  const rule: BatchUploadRule = {
    field: 'documents',
    store,
    maxFiles: 5,
    maxBytes: 1024 * 1024,
    accept: documentTypes,
    tooLargeMessage: 'Too large.',
    wrongTypeMessage: 'Wrong type.',
    textPart: { name: 'csvManifest', maxBytes: 1024, tooLargeMessage: 'Manifest too large.' },
  };
  const seen: { body: unknown; files: string[]; inTemp: number }[] = [];
  let http: ReturnType<Koa['listen']>;
  let port = 0;
  const tempFiles = async () => readdir(path.join(store.root, 'tmp')).catch(() => [] as string[]);

  beforeAll(async () => {
    const app = new Koa<AppState>();
    app.use(errorHandler(createLogger('silent')));
    app.use((ctx, next) => {
      ctx.state.user = { id: 1, email: 'admin@example.com', role: 'administrator', session: { id: 's', expiresAt: new Date(Date.now() + 60_000), tokenVersion: 0, secondStep: false } };
      const none = () => undefined;
      ctx.state.effects = { 'ends-sessions': none, 'queues-mail': none, 'changes-documents': none, 'changes-users': none, 'changes-shares': none };
      return next();
    });
    const router = new Router<AppState>();
    const earlier = { message: 'Answered before.', successful: [], failed: [], unprocessed: [], totalProcessed: 0 };
    bind(
      router,
      routes.bulkUploadPersonalDocuments,
      async ({ body, batch }) => {
        seen.push({ body, files: batch?.files.map((f) => f.filename) ?? [], inTemp: (await tempFiles()).length });
        return { ...earlier, message: 'Read.' };
      },
      { batch: rule, before: async ({ ctx }) => (ctx.get('idempotency-key') === 'seen' ? earlier : null) },
    );
    app.use(router.routes());
    http = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => http.once('listening', () => resolve()));
    port = (http.address() as AddressInfo).port;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    rmSync(store.root, { recursive: true, force: true });
  });

  const boundary = 'batch-boundary';
  const part = (name: string, filename: string | null, bytes: Buffer) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n`),
      bytes,
      Buffer.from('\r\n'),
    ]);

  /** Starts a multipart request and sends `head` of it, leaving the rest to `finish`. */
  function start(key: string, head: Buffer) {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: routes.bulkUploadPersonalDocuments.path,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'idempotency-key': key },
    });
    const answer = new Promise<{ status: number; json: unknown }>((resolve, reject) => {
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString()) }));
      });
      req.on('error', reject);
    });
    req.write(head);
    return { answer, finish: (rest: Buffer) => req.end(rest) };
  }

  it("answers from its 'before' hook without reading a byte of the body", async () => {
    // The file's part is left open: an answer can only come from a binder that does not wait for it.
    const call = start('seen', part('documents', 'a.pdf', samplePdf('never read')).subarray(0, 200));
    const res = await call.answer;
    expect(res).toEqual({ status: 200, json: expect.objectContaining({ message: 'Answered before.' }) });
    expect(await tempFiles()).toEqual([]);
    expect(seen).toEqual([]);
    call.finish(Buffer.alloc(0));
  });

  it('parses its fields with the route’s body schema, hands over the checked files, and removes them after the call', async () => {
    const call = start('new', Buffer.alloc(0));
    call.finish(
      Buffer.concat([
        part('emailNotification', null, Buffer.from('true')),
        part('documents[]', 'a.pdf', samplePdf('batch a')),
        part('documents[]', 'dir/b.pdf', samplePdf('batch b')),
        Buffer.from(`--${boundary}--\r\n`),
      ]),
    );
    const res = await call.answer;
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ message: 'Read.' });
    expect(seen).toEqual([{ body: { emailNotification: true, notifyLater: false }, files: ['a.pdf', 'b.pdf'], inTemp: 2 }]);
    expect(await tempFiles()).toEqual([]);
  });
});
