import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderUploadStatus } from '../../shared/api';
import { startTestServer, type TestServer } from '@everest/server/testing';
import { createDesktopSession, type DesktopSession } from '../session/desktop-session';
import { createSessionPortal } from '../session/session-portal';
import { createTokenVault } from '../session/token-vault';
import { planFolderDrop } from './drop-plan';
import { createFolderUploads } from './folder-upload';

let server: TestServer;
let session: DesktopSession;
const dirs: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  session = createDesktopSession({ vault: createTokenVault(path.join(temp(), 'session.bin'), null), initialServerUrl: server.url });
  await session.signIn(server.url, 'admin@example.com', 'Everest@2025');
});
afterAll(async () => {
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-folder-upload-'));
  dirs.push(dir);
  return dir;
}

function pdf(): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n${'x'.repeat(200)}\n%%EOF\n`);
}

/** A quarter folder of `count` General documents titled `<prefix> n`. */
function quarterFolder(prefix: string, count: number): string {
  const folder = path.join(temp(), '2025-Q4');
  mkdirSync(path.join(folder, 'properties', 'General'), { recursive: true });
  for (let n = 1; n <= count; n += 1) writeFileSync(path.join(folder, 'properties', 'General', `${prefix} ${n}.pdf`), pdf());
  return folder;
}

async function titlesOnServer(prefix: string): Promise<string[]> {
  const documents = (await session.client().call('adminDocuments', undefined, { cache: 'no-store' })).documents;
  return documents.filter((d) => d.title.startsWith(`${prefix} `)).map((d) => d.title);
}

/** Waits for the upload to reach a state (looked at every 20 ms; the test's timeout bounds it). */
function waitFor(uploads: { status(): FolderUploadStatus | null }, reached: (s: FolderUploadStatus) => boolean) {
  return new Promise<FolderUploadStatus>((resolve) => {
    const check = () => {
      const status = uploads.status();
      if (status && reached(status)) resolve(status);
      else setTimeout(check, 20);
    };
    check();
  });
}

describe('publishing a dropped folder', () => {
  it('plans, publishes every file once, and plans it as already published afterwards', async () => {
    const prefix = `Drop ${randomBytes(3).toString('hex')}`;
    const folder = quarterFolder(prefix, 5);
    const portal = createSessionPortal(session);
    expect((await planFolderDrop(folder, portal)).propertyDocuments.map((d) => d.alreadyPublished)).toEqual([false, false, false, false, false]);

    const statuses: FolderUploadStatus[] = [];
    const uploads = createFolderUploads({ directory: temp(), portal, onStatus: (s) => statuses.push(s), stabilityMs: 50 });
    await uploads.start(folder, { emailNotification: false });
    const done = await waitFor(uploads, (s) => s.state === 'done');
    expect(done).toMatchObject({ done: 5, total: 5 });
    expect(done.files.every((f) => f.state === 'published')).toBe(true);
    // Progress was reported along the way, file by file.
    expect(statuses.some((s) => s.files.some((f) => f.state === 'sending'))).toBe(true);
    expect((await titlesOnServer(prefix)).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `${prefix} ${n}`));
    expect((await planFolderDrop(folder, portal)).propertyDocuments.every((d) => d.alreadyPublished)).toBe(true);
  });

  it('issue 34: ends with a summary that names each state, never "12 of 12 done" for files that need attention', async () => {
    const prefix = `Summary ${randomBytes(3).toString('hex')}`;
    const folder = quarterFolder(prefix, 3);
    const general = path.join(folder, 'properties', 'General');
    writeFileSync(path.join(general, `${prefix} 1 - Copy.pdf`), readFileSync(path.join(general, `${prefix} 1.pdf`)));
    writeFileSync(path.join(general, `${prefix} notes.txt`), 'call the roofer');
    writeFileSync(path.join(general, 'Thumbs.db'), randomBytes(32));
    mkdirSync(path.join(folder, 'properties', 'Nowhere Plaza'));
    writeFileSync(path.join(folder, 'properties', 'Nowhere Plaza', `${prefix} stray.pdf`), pdf());
    const uploads = createFolderUploads({ directory: temp(), portal: createSessionPortal(session), onStatus: () => undefined, stabilityMs: 50 });
    await uploads.start(folder, { emailNotification: false });
    const done = await waitFor(uploads, (s) => s.state === 'done');
    expect(done.summary).toBe('3 published, 0 already on the portal, 2 need attention, 0 still being written, 2 skipped by rule');
    expect(done.counts).toMatchObject({ published: 3, 'needs-attention': 2, skipped: 2 });
    expect(done.files.filter((f) => f.state === 'needs-attention').map((f) => path.basename(f.path)).sort()).toEqual([`${prefix} notes.txt`, `${prefix} stray.pdf`]);
  });

  it('closed mid-upload, comes back paused after a restart and, resumed, publishes the rest with no duplicate', async () => {
    const prefix = `Paused ${randomBytes(3).toString('hex')}`;
    const folder = quarterFolder(prefix, 20);
    const directory = temp();
    const portal = createSessionPortal(session);
    const first = createFolderUploads({ directory, portal, onStatus: () => undefined, stabilityMs: 50 });
    await first.start(folder, { emailNotification: false });
    await waitFor(first, (s) => s.files.some((f) => f.state === 'sending' || f.state === 'published'));
    // The app is closed mid-upload (its job file still says running) and opened again: the
    // upload comes back paused, with its files, and sends nothing until asked.
    const restarted = createFolderUploads({ directory, portal, onStatus: () => undefined, stabilityMs: 50 });
    expect(await restarted.restore()).toMatchObject({ folder, state: 'paused' });
    // The closed app's engine stops, as its process would; pausing stops it the same way.
    expect((await first.pause())?.state).toBe('paused');
    expect((await titlesOnServer(prefix)).length).toBeLessThan(20);

    await restarted.start(folder, { emailNotification: false });
    expect(await waitFor(restarted, (s) => s.state === 'done')).toMatchObject({ done: 20, total: 20 });
    const titles = await titlesOnServer(prefix);
    expect(titles.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `${prefix} ${i + 1}`).sort());
  });
});
