// Issue 34: a watched-folder sync that staff can leave running. Each defect of the issue, against
// the real server and PostgreSQL, as sync-engine.test.ts does; time is driven by short windows
// passed as options.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '@everest/core/client';
import { startTestServer, TcpGate, type TestServer } from '@everest/server/testing';
import { buildAccountantFolder } from '@everest/fixtures/accountant-folder';
import { FolderLocked, lockFileName } from './folder-lock';
import { createPortal, type Portal } from './portal';
import { SyncEngine, type SyncEvent, type SyncOptions } from './sync-engine';
import { pdf, removeWorkspaces, sha256, workspace, write } from '../../test/folder';

const admin = { email: 'admin@example.com', password: 'Everest@2025' };
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  const signedIn = await createApiClient({ baseUrl: server.url }).call('login', { body: admin });
  if (!('token' in signedIn)) throw new Error('The test administrator has no second step.');
  token = signedIn.token;
});
afterAll(async () => {
  await server?.close();
  removeWorkspaces();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every request the portal makes, by method and path, as it went over the wire. */
function recordingFetch(): { fetch: typeof globalThis.fetch; calls: string[] } {
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    return globalThis.fetch(input, init);
  };
  return { fetch, calls };
}

function options(space: { folder: string; ledgerFile: string }, portal: Portal, events: SyncEvent[] = []): SyncOptions {
  return {
    ...space,
    portal,
    stabilityMs: 250,
    tickMs: 50,
    backoff: { baseMs: 100, maxMs: 400 },
    digestQuietMs: 0,
    onEvent: (event) => events.push(event),
  };
}

async function documentsTitled(prefix: string) {
  const client = createApiClient({ baseUrl: server.url, getToken: () => token });
  return (await client.call('adminDocuments', undefined, { cache: 'no-store' })).documents.filter((d) => d.title.startsWith(prefix));
}

async function serverSha256(documentId: number): Promise<string> {
  const response = await server.api(`/api/investor/download/${documentId}`, { headers: { Authorization: `Bearer ${token}` } });
  return sha256(Buffer.from(await response.arrayBuffer()));
}

describe('defect 1: only finished files are published', () => {
  it('publishes a scan written a page at a time, pausing longer than the window, once and whole: never a part, never replaced', async () => {
    const space = workspace('2025-Q2');
    const { fetch, calls } = recordingFetch();
    const events: SyncEvent[] = [];
    const engine = await SyncEngine.create(options(space, createPortal({ serverUrl: server.url, ...admin, fetch }), events));
    await engine.start();
    const relative = 'properties/Mesa Verde Villas/Scanner Statement.pdf';
    const file = path.join(space.folder, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    const pages = ['%PDF-1.4\n% scan\n', ...[1, 2, 3, 4].map((n) => `${n} 0 obj << /Type /Page >> endobj\n`), 'trailer << >>\n%%EOF\n'];
    try {
      writeFileSync(file, pages[0]!);
      // Each pause is longer than the stability window: only the missing end says "not finished".
      for (const page of pages.slice(1)) {
        await pause(400);
        expect(calls.filter((c) => c.endsWith('/upload-document'))).toEqual([]);
        writeFileSync(file, pages.slice(0, pages.indexOf(page) + 1).join(''));
      }
      await vi.waitFor(() => expect(engine.status().published.map((e) => e.path)).toEqual([relative]), { timeout: 10_000, interval: 50 });
      await engine.idle();
    } finally {
      await engine.stop();
    }
    expect(events).toContainEqual(expect.objectContaining({ path: relative, state: 'still-being-written' }));
    expect(calls.filter((c) => c.endsWith('/upload-document'))).toHaveLength(1);
    expect(calls.filter((c) => c.includes('/replace'))).toEqual([]);
    const [document] = await documentsTitled('Scanner Statement');
    expect(await serverSha256(document!.id)).toBe(sha256(Buffer.from(pages.join(''))));
  });

  it('replaces a published file rewritten slowly only once, when it is finished, and says nothing before', async () => {
    const space = workspace('2025-Q2');
    const { fetch, calls } = recordingFetch();
    const events: SyncEvent[] = [];
    const engine = await SyncEngine.create(options(space, createPortal({ serverUrl: server.url, ...admin, fetch }), events));
    const relative = 'properties/General/Rewritten Letter.pdf';
    write(space.folder, relative, pdf('first version'));
    await engine.start();
    try {
      await vi.waitFor(() => expect(engine.status().published).toHaveLength(1), { timeout: 10_000, interval: 50 });
      const before = events.length;
      const final = pdf('second version, written in three goes');
      for (const end of [60, 140, final.length]) {
        writeFileSync(path.join(space.folder, relative), final.subarray(0, end));
        if (end !== final.length) await pause(400);
      }
      await vi.waitFor(() => expect(calls.filter((c) => c.includes('/replace-document'))).toHaveLength(1), { timeout: 10_000, interval: 50 });
      await engine.idle();
      // Between the first byte and the replace: only "still being written", nothing published.
      const during = events.slice(before).filter((e) => e.state !== 'publishing');
      expect(during.map((e) => e.state)).toEqual(['still-being-written', 'published']);
      const [document] = await documentsTitled('Rewritten Letter');
      expect(await serverSha256(document!.id)).toBe(sha256(final));
    } finally {
      await engine.stop();
    }
  });

  it('gives a PDF whose end stays missing to a person, and a one-off run ends on a file still changing, counting it', async () => {
    const space = workspace('2025-Q2');
    write(space.folder, 'properties/General/Damaged Scan.pdf', Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\n'));
    const old = new Date(Date.now() - 60_000);
    utimesSync(path.join(space.folder, 'properties/General/Damaged Scan.pdf'), old, old);
    const changing = path.join(space.folder, 'properties/General/Still Writing.pdf');
    writeFileSync(changing, pdf('changing'));
    let n = 0;
    const writer = setInterval(() => writeFileSync(changing, pdf(`changing ${(n += 1)}`)), 60);
    const engine = await SyncEngine.create({ ...options(space, createPortal({ serverUrl: server.url, ...admin })), watch: false, writingPatienceMs: 800, incompleteAfterMs: 30_000 });
    let ok;
    try {
      ok = await engine.runOnce();
    } finally {
      clearInterval(writer);
    }
    const { counts, report } = engine.status();
    expect(ok).toBe(false);
    expect(counts).toMatchObject({ 'needs-attention': 1, 'still-being-written': 1, published: 0 });
    expect(report.find((r) => r.path.endsWith('Damaged Scan.pdf'))?.message).toMatch(/^The PDF does not end with its end-of-file mark/);
    expect(await documentsTitled('Damaged Scan')).toEqual([]);
    expect(await documentsTitled('Still Writing')).toEqual([]);
  });
});

describe('defect 2: a refused sign-in stops the sync at once, never retried', () => {
  async function refusedRun(email: string, password: string) {
    const space = workspace('2025-Q2');
    write(space.folder, 'properties/General/Refused Sign-in.pdf', pdf('refused'));
    const { fetch, calls } = recordingFetch();
    const events: SyncEvent[] = [];
    const engine = await SyncEngine.create(options(space, createPortal({ serverUrl: server.url, email, password, fetch }), events));
    await engine.start();
    await vi.waitFor(() => expect(engine.stoppedBecause).not.toBeNull(), { timeout: 10_000, interval: 20 });
    // Several backoff steps later, still one sign-in.
    await pause(500);
    await engine.stop();
    return { engine, events, logins: calls.filter((c) => c.startsWith('POST /api/investor/login')) };
  }

  it('a wrong password: one sign-in, its own sentence, stopped', async () => {
    const { engine, events, logins } = await refusedRun(admin.email, 'Stale-password-2024');
    expect(logins).toHaveLength(1);
    expect(engine.stoppedBecause).toMatch(/^The portal refused the sync's sign-in: Invalid email or password/);
    expect(events.filter((e) => e.state === 'stopped')).toHaveLength(1);
    expect(events.some((e) => e.state === 'portal-away' || e.state === 'failed')).toBe(false);
  });

  it('an account that is not an administrator', async () => {
    const { engine, logins } = await refusedRun('investor@example.com', admin.password);
    expect(logins).toHaveLength(1);
    expect(engine.stoppedBecause).toContain('this account is not one');
  });

  it("a deactivated account, and the portal asking for a captcha after many failures (issue 33's captchaRequired)", async () => {
    const client = createApiClient({ baseUrl: server.url, getToken: () => token });
    const make = async () => {
      const email = `sync34-${randomBytes(4).toString('hex')}@example.com`;
      const created = await client.call('createUser', { body: { name: 'Sync Account', email, role: 'administrator', password: admin.password } });
      return { email, id: created.user.id };
    };
    const deactivated = await make();
    await client.call('editUser', { body: { userId: deactivated.id, isActive: false } });
    const first = await refusedRun(deactivated.email, admin.password);
    expect(first.logins).toHaveLength(1);
    expect(first.engine.stoppedBecause).toMatch(/^The portal refused the sync's sign-in: /);

    const guessed = await make();
    for (let i = 0; i < 10; i += 1) {
      await server.api('/api/investor/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: guessed.email, password: 'wrong' }) });
    }
    const second = await refusedRun(guessed.email, admin.password);
    expect(second.logins).toHaveLength(1);
    // The right password, answered 429: captchaRequired (a check is for a person at a form), or
    // the account's lock-out at this address, whichever of issue 33's counters speaks first.
    expect(second.engine.stoppedBecause).toMatch(/^The portal refused the sync's sign-in: (Many sign-ins to this account have failed lately|Too many failed sign-in attempts)/);
  });

  it('the command exits 3 with its sentence, having signed in once', async () => {
    const space = workspace('2025-Q2');
    write(space.folder, 'properties/General/Cli Refused.pdf', pdf('cli'));
    const relay = await TcpGate.start(server.url);
    const desktop = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/sync.ts', '--server', relay.url(), '--folder', space.folder, '--ledger', space.ledgerFile, '--stability-seconds', '5', '--once'],
      { cwd: desktop, env: { ...process.env, EVEREST_EMAIL: admin.email, EVEREST_PASSWORD: 'Stale-password-2024', INIT_CWD: desktop }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    await relay.close();
    expect(code).toBe(3);
    expect(stderr).toMatch(/^The portal refused the sync's sign-in: Invalid email or password/);
    expect(stdout).not.toContain('could not be reached');
    expect(relay.connections).toBe(1);
  });

  it('the command refuses a portal over plain http on another computer before it sends the password', async () => {
    const space = workspace('2025-Q2');
    const desktop = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/sync.ts', '--server', 'http://portal.example.com', '--folder', space.folder, '--ledger', space.ledgerFile, '--once'],
      { cwd: desktop, env: { ...process.env, EVEREST_EMAIL: admin.email, EVEREST_PASSWORD: admin.password, INIT_CWD: desktop }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Use https:\/\/ for a portal on another computer/);
  });
});

describe('defect 3: backoff that backs off, and one line per change of state', () => {
  it('says once that the portal is away and once that it is back, probing with growing pauses, then publishes everything', async () => {
    const space = workspace('2025-Q3');
    for (let i = 0; i < 12; i += 1) write(space.folder, `properties/General/Away ${String(i).padStart(2, '0')}.pdf`, pdf(`away ${i}`));
    const relay = await TcpGate.start(server.url);
    relay.mode = 'refuse';
    const events: SyncEvent[] = [];
    const engine = await SyncEngine.create(options(space, createPortal({ serverUrl: relay.url(), ...admin }), events));
    try {
      await engine.start();
      await vi.waitFor(() => expect(events.some((e) => e.state === 'portal-away')).toBe(true), { timeout: 10_000, interval: 20 });
      // About 2 s of outage: probes 100, 200, 400, 400… ms apart (less jitter), not one per file per tick.
      await pause(2_000);
      expect(relay.connections).toBeLessThanOrEqual(12);
      relay.mode = 'pass';
      await vi.waitFor(() => expect(engine.status().published).toHaveLength(12), { timeout: 15_000, interval: 50 });
    } finally {
      await engine.stop();
      await relay.close();
    }
    const said = events.filter((e) => e.state !== 'publishing' && e.state !== 'published');
    expect(said.map((e) => e.state)).toEqual(['portal-away', 'portal-back']);
    expect(await documentsTitled('Away ')).toHaveLength(12);
  });

  it('a one-off run with the portal down gives up after its 5 attempts, said in one line', async () => {
    const space = workspace('2025-Q3');
    for (let i = 0; i < 6; i += 1) write(space.folder, `properties/General/Down ${i}.pdf`, pdf(`down ${i}`));
    const relay = await TcpGate.start(server.url);
    relay.mode = 'refuse';
    const events: SyncEvent[] = [];
    const engine = await SyncEngine.create({ ...options(space, createPortal({ serverUrl: relay.url(), ...admin }), events), watch: false, maxAttempts: 5, backoff: { baseMs: 50, maxMs: 200 } });
    try {
      expect(await engine.runOnce()).toBe(false);
    } finally {
      await relay.close();
    }
    expect(relay.connections).toBe(5);
    expect(events.map((e) => e.state)).toEqual(['portal-away']);
    expect(engine.status().unreachable).toBe('Could not reach the server. Please check your connection and try again.');
  });

  it("counts a failing file's attempts truly, doubling its pauses, and says it twice: when it fails and when it is given up", async () => {
    const space = workspace('2025-Q3');
    write(space.folder, 'properties/General/Always Failing.pdf', pdf('failing'));
    const attempts: number[] = [];
    // The server answering 500 to this one upload (a fault of its own, not an outage).
    const failing: typeof globalThis.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/api/admin/upload-document')) {
        attempts.push(Date.now());
        return Promise.resolve(new Response(JSON.stringify({ error: 'Something went wrong on our side.' }), { status: 500, headers: { 'Content-Type': 'application/json' } }));
      }
      return globalThis.fetch(input, init);
    };
    const events: SyncEvent[] = [];
    const engine = await SyncEngine.create({ ...options(space, createPortal({ serverUrl: server.url, ...admin, fetch: failing }), events), watch: false, maxAttempts: 5 });
    expect(await engine.runOnce()).toBe(false);
    expect(attempts).toHaveLength(5);
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    // Equal jitter: each wait is between half and all of 100, 200, 400, 400 ms.
    [100, 200, 400, 400].forEach((ceiling, i) => expect(gaps[i]).toBeGreaterThanOrEqual(ceiling / 2 - 5));
    const said = events.filter((e) => e.path === 'properties/General/Always Failing.pdf' && e.state !== 'publishing');
    expect(said.map((e) => e.message)).toEqual([
      'Failed (attempt 1): Something went wrong on our side. Retrying with growing pauses.',
      'Gave up after 5 attempts: Something went wrong on our side.',
    ]);
    expect(engine.status().report).toEqual([expect.objectContaining({ outcome: 'needs-attention', message: 'Something went wrong on our side.' })]);
  });
});

describe('defect 4: one sync per folder', () => {
  it('refuses a second sync on a folder, naming who holds it and since when, and lets it start once the first stops', async () => {
    const space = workspace('2025-Q3');
    const first = await SyncEngine.create({ ...options(space, createPortal({ serverUrl: server.url, ...admin })), runBy: 'desktop app' });
    await first.start();
    const second = await SyncEngine.create({ ...options({ ...space, ledgerFile: `${space.ledgerFile}.other` }, createPortal({ serverUrl: server.url, ...admin })) });
    try {
      const refused = await second.start().then(() => null, (error: unknown) => error);
      expect(refused).toBeInstanceOf(FolderLocked);
      expect((refused as Error).message).toMatch(
        new RegExp(`^This folder is already being synced by the desktop app of ${os.userInfo().username} on ${os.hostname()} \\(process ${process.pid}\\) since .+ Only one sync may publish a folder at a time: stop that one first\\.$`),
      );
    } finally {
      await first.stop();
    }
    await second.start();
    await second.stop();
  });

  it("takes over the lock of a process that died, and of another machine's sync that stopped refreshing it; not a live one's", async () => {
    const space = workspace('2025-Q3');
    const lock = path.join(space.folder, lockFileName);
    // Anyone who can write the folder can write its lock: a terminal escape in it is shown as '?'.
    const holder = (host: string, pid: number) => JSON.stringify({ id: 'x', host, user: 'some\u001b[2Jone', pid, runBy: 'command line', since: new Date().toISOString() });
    const start = async () => {
      const engine = await SyncEngine.create({ ...options(space, createPortal({ serverUrl: server.url, ...admin })), lockStaleMs: 5_000 });
      await engine.start();
      const held = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number };
      await engine.stop();
      return held.pid;
    };
    // A dead process of this machine.
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.once('exit', resolve));
    writeFileSync(lock, holder(os.hostname(), dead.pid!));
    expect(await start()).toBe(process.pid);
    // Another machine's live sync.
    writeFileSync(lock, holder('file-server', 4242));
    await expect(start()).rejects.toThrow('synced by the command line of some?[2Jone on file-server (process 4242)');
    // The same, not refreshed for longer than the stale time.
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(await start()).toBe(process.pid);
  });

  it('publishes each file once even when the lock is bypassed and two syncs send the same folder at once', async () => {
    const space = workspace('2025-Q4');
    for (let i = 0; i < 10; i += 1) write(space.folder, `properties/Mesa Verde Villas/Bypassed ${i}.pdf`, pdf(`bypassed ${i}`));
    const a = await SyncEngine.create({ ...options(space, createPortal({ serverUrl: server.url, ...admin })), watch: false });
    const b = await SyncEngine.create({ ...options({ ...space, ledgerFile: `${space.ledgerFile}.b` }, createPortal({ serverUrl: server.url, ...admin })), watch: false });
    await a.start();
    rmSync(path.join(space.folder, lockFileName));
    await b.start();
    await Promise.all([a.idle(), b.idle()]);
    await Promise.all([a.stop(), b.stop()]);
    expect(await documentsTitled('Bypassed ')).toHaveLength(10);
  });
});

describe("defect 5: every file and manifest row ends in one clear state, counted", () => {
  it("the accountant's folder: each file and row in its outcome, the scan published once, and the run failing for what needs a person", async () => {
    const space = workspace('quarters');
    const folder = await buildAccountantFolder({ root: space.folder, large: false });
    const events: SyncEvent[] = [];
    const { fetch, calls } = recordingFetch();
    const engine = await SyncEngine.create(options(space, createPortal({ serverUrl: server.url, ...admin, fetch }), events));
    await engine.start();
    try {
      await folder.writeSlowly(3, 400);
      await vi.waitFor(() => expect(engine.status().counts).toMatchObject({ waiting: 0, sending: 0, 'still-being-written': 0, failed: 0 }), { timeout: 20_000, interval: 50 });
      await vi.waitFor(() => expect(engine.status().report.find((r) => r.path === folder.slowPath)?.outcome).toBe('published'), { timeout: 20_000, interval: 50 });
      await engine.idle();
    } finally {
      await engine.stop();
    }
    const { report, counts } = engine.status();
    const outcomes = (items: { path: string; row?: number; expect?: string; outcome?: string }[]) =>
      items.map((i) => `${i.path.normalize('NFC')}${i.row ? `#${i.row}` : ''} ${i.expect ?? i.outcome}`).sort();
    expect(outcomes(report)).toEqual(outcomes(folder.files));
    expect(counts['needs-attention']).toBe(folder.files.filter((f) => f.expect === 'needs-attention').length);
    expect(engine.succeeded()).toBe(false);
    // The scan was sent once, whole.
    expect(calls.filter((c) => c.endsWith('/upload-document'))).toHaveLength(folder.files.filter((f) => f.expect === 'published' && f.path.includes('/properties/')).length);
    expect(events.filter((e) => e.path === folder.slowPath && e.state === 'published')).toHaveLength(1);
  });

  it('says a folder moved from Q3 to Q4 was not refiled, with what to do, and publishes nothing; with or without the ledger', async () => {
    const space = workspace('quarters');
    write(space.folder, '2025-Q3/properties/Mesa Verde Villas/Moved Quarter Report.pdf', pdf('moved'));
    const run = async (ledgerFile: string) => {
      const engine = await SyncEngine.create({ ...options({ ...space, ledgerFile }, createPortal({ serverUrl: server.url, ...admin })), watch: false });
      const ok = await engine.runOnce();
      return { ok, engine };
    };
    expect((await run(space.ledgerFile)).ok).toBe(true);
    renameSync(path.join(space.folder, '2025-Q3'), path.join(space.folder, '2025-Q4'));
    for (const ledgerFile of [space.ledgerFile, `${space.ledgerFile}.lost`]) {
      const { ok, engine } = await run(ledgerFile);
      expect(ok).toBe(false);
      expect(engine.status().report).toEqual([
        {
          path: '2025-Q4/properties/Mesa Verde Villas/Moved Quarter Report.pdf',
          outcome: 'needs-attention',
          message: expect.stringMatching(/^Already on the portal as document \d+, filed under Q3 2025: moving the file to Q4 2025 did not refile it, and nothing was published\. If Q4 2025 is right, change the document's quarter in the admin panel/),
        },
      ]);
    }
    const documents = await documentsTitled('Moved Quarter Report');
    expect(documents.map((d) => [d.year, d.quarter])).toEqual([[2025, 'Q3']]);
  });

  it('says "Deleted locally: the portal keeps its document" only of a published file', async () => {
    const space = workspace('2025-Q1');
    write(space.folder, 'properties/General/Deleted Published.pdf', pdf('published then deleted'));
    write(space.folder, 'properties/Nowhere/Deleted Unpublished.pdf', pdf('never published'));
    const events: SyncEvent[] = [];
    const engine = await SyncEngine.create(options(space, createPortal({ serverUrl: server.url, ...admin }), events));
    await engine.start();
    try {
      await vi.waitFor(() => expect(engine.status().counts).toMatchObject({ published: 1, 'needs-attention': 1 }), { timeout: 10_000, interval: 50 });
      rmSync(path.join(space.folder, 'properties/General/Deleted Published.pdf'));
      rmSync(path.join(space.folder, 'properties/Nowhere/Deleted Unpublished.pdf'));
      await vi.waitFor(() => expect(events.filter((e) => e.state === 'missing')).toHaveLength(2), { timeout: 10_000, interval: 50 });
    } finally {
      await engine.stop();
    }
    expect(events.filter((e) => e.state === 'missing').map((e) => [e.path, e.message]).sort()).toEqual([
      ['properties/General/Deleted Published.pdf', 'Deleted locally: the portal keeps its document.'],
      ['properties/Nowhere/Deleted Unpublished.pdf', 'Deleted locally before it was published: nothing was sent.'],
    ]);
  });
});
