import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '@everest/fixtures';
import { ChildServer } from '../../test/child-server';
import { createTestDatabase, type TestDatabase } from '../../test/harness';
import { openOrm } from '../db/orm';
import { seedDemoData } from '../db/seed';
import { LocalFileStore } from '../features/files/local-file-store';
import { samplePdf } from '../../test/sample-documents';

describe('the request log of a running server', () => {
  let database: TestDatabase;
  let dataDir = '';
  let server: ChildServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-log-'));
    chmodSync(dataDir, 0o755);
    const orm = await openOrm(database.url);
    await seedDemoData(orm.em.fork(), new LocalFileStore(path.join(dataDir, 'files')));
    await orm.close(true);
    server = await ChildServer.start({ DATABASE_URL: database.url, DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes one JSON line per request with its id and user, and never a password, token or query string', async () => {
    const { url } = server;
    const wrongPassword = 'Not-The-Password-4711!';
    const refused = await fetch(`${url}/api/investor/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'investor@example.com', password: wrongPassword }),
    });
    expect(refused.status).toBe(401);
    const signIn = async (email: string) => {
      const res = await fetch(`${url}/api/investor/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'lb-4711.a' },
        body: JSON.stringify({ email, password: demoPassword }),
      });
      expect(res.status).toBe(200);
      // A load balancer's id is kept and answered.
      expect(res.headers.get('x-request-id')).toBe('lb-4711.a');
      return ((await res.json()) as { token: string; user: { id: number } }).token;
    };
    const adminToken = await signIn('admin@example.com');
    const token = await signIn('investor@example.com');

    const form = new FormData();
    form.set('title', 'Logged Download');
    form.set('property', 'General');
    form.set('year', '2025');
    form.set('quarter', 'Q2');
    form.set('document', new Blob([new Uint8Array(samplePdf('logged download'))]), 'logged.pdf');
    const uploaded = await fetch(`${url}/api/admin/upload-document`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: form });
    expect(uploaded.status).toBe(200);
    const { document } = (await uploaded.json()) as { document: { id: number } };

    // The browser's download: the session in the query string.
    const download = await fetch(`${url}/api/investor/download/${document.id}?token=${encodeURIComponent(token)}&preview=1`, {
      headers: { 'x-request-id': '<script>alert(1)</script>' },
    });
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    // Anything but a plain id is replaced by one of ours.
    const downloadId = download.headers.get('x-request-id') ?? '';
    expect(downloadId).toMatch(/^[0-9a-f-]{36}$/);
    // The property list twice: the second answer comes from memory, before Koa (the hot path).
    const listIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const list = await fetch(`${url}/api/properties?token=listed-token`);
      expect(list.status).toBe(200);
      await list.arrayBuffer();
      listIds.push(list.headers.get('x-request-id') ?? '');
    }
    const profile = await fetch(`${url}/api/investor/profile`, { headers: { authorization: `Bearer ${token}` } });
    expect(profile.status).toBe(200);
    const { id: investorId } = ((await profile.json()) as { user: { id: number } }).user;

    // Lines are written as answers end; the last one asked is the last one to wait for.
    const profileId = profile.headers.get('x-request-id');
    const deadline = Date.now() + 10_000;
    while (!server.output.includes(`"requestId":"${profileId}"`)) {
      if (Date.now() > deadline) throw new Error(`no line for the profile request:\n${server.output}`);
      await new Promise((resolve) => setImmediate(resolve));
    }

    for (const secret of [demoPassword, wrongPassword, token, adminToken, 'token=', 'preview=1', '<script>', 'listed-token']) {
      expect(server.output, secret).not.toContain(secret);
    }
    const requests = server.lines().filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(8);
    for (const listId of listIds) {
      expect(listId).toMatch(/^[0-9a-f-]{36}$/);
      expect(requests.find((line) => line.requestId === listId)).toMatchObject({ method: 'GET', path: '/api/properties', status: 200 });
    }
    const downloadLine = requests.find((line) => line.requestId === downloadId);
    expect(downloadLine).toMatchObject({ level: 'info', method: 'GET', path: `/api/investor/download/${document.id}`, status: 200, userId: investorId });
    expect(typeof downloadLine?.durationMs).toBe('number');
    expect(typeof downloadLine?.time).toBe('string');
    const refusedLine = requests.find((line) => line.path === '/api/investor/login' && line.status === 401);
    expect(refusedLine).toBeDefined();
    expect(refusedLine?.userId).toBeUndefined();
  });
});
