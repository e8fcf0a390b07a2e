import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '@everest/fixtures';
import { ChildServer } from '../test/child-server';
import { loadAverage, printFigures, seconds } from '../test/drill-kit';
import { LocalFileStore } from '../src/features/files/local-file-store';
import { databaseUnavailableMessage } from '../src/http/errors';
import { freePort, startEmbeddedPostgres, type EmbeddedCluster } from '../src/db/embedded';
import { openOrm } from '../src/db/orm';
import { seedDemoData } from '../src/db/seed';

interface Answer {
  /** While PostgreSQL stops and starts, answers may be either; 'down' and 'after' are strict. */
  phase: 'before' | 'stopping' | 'down' | 'starting' | 'after';
  path: string;
  status: number;
  error?: string;
  /** When the answer arrived (ms since the epoch). */
  at: number;
}

/** Waits for a state, looking again each time the event loop turns. */
async function until(look: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!look()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('PostgreSQL stopped for 10 seconds under load', () => {
  let pgDir = '';
  let dataDir = '';
  let pgPort = 0;
  let cluster: EmbeddedCluster | undefined;
  let server: ChildServer | undefined;

  beforeAll(async () => {
    pgDir = mkdtempSync(path.join(os.tmpdir(), 'everest-outage-pg-'));
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-outage-data-'));
    chmodSync(pgDir, 0o755);
    chmodSync(dataDir, 0o755);
    pgPort = await freePort();
    cluster = await startEmbeddedPostgres(pgDir, () => {}, pgPort);
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('create database everest');
    await admin.end();
  });
  afterAll(async () => {
    await server?.stop();
    await cluster?.stop();
    rmSync(pgDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with a sentence while it is down and 200 once it is back, in the same process', async () => {
    if (!cluster) throw new Error('no cluster');
    const databaseUrl = cluster.url('everest');
    server = await ChildServer.start({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    const { url } = server;
    const orm = await openOrm(databaseUrl);
    await seedDemoData(orm.em.fork(), new LocalFileStore(path.join(dataDir, 'files')));
    await orm.close(true);

    const signIn = await fetch(`${url}/api/investor/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: demoPassword }),
    });
    expect(signIn.status).toBe(200);
    const { token } = (await signIn.json()) as { token: string };

    // Four clients asking without pause for what needs the database: readiness, and the
    // administrators' user list with a search never asked before (so never from the cache).
    let phase: Answer['phase'] = 'before';
    let loading = true;
    let n = 0;
    const answers: Answer[] = [];
    const client = async () => {
      while (loading) {
        const askedIn = phase;
        n += 1;
        const target = n % 2 === 0 ? '/api/health/ready' : `/api/admin/users?page=1&limit=10&search=x${n}`;
        const res = await fetch(`${url}${target}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await res.json()) as { error?: string };
        // An answer that straddles a change of phase belongs to neither.
        if (askedIn === phase) answers.push({ phase, path: target.split('?')[0] ?? target, status: res.status, error: body.error, at: Date.now() });
      }
    };
    const clients = Promise.all([client(), client(), client(), client()]);
    const count = (p: Answer['phase'], status?: number) => answers.filter((a) => a.phase === p && (status === undefined || a.status === status)).length;

    await until(() => count('before', 200) >= 20, '20 answers before the outage');
    const pid = server.process.pid;
    phase = 'stopping';
    const stopAt = Date.now();
    await cluster.stop();
    phase = 'down';
    const downAt = Date.now();
    // The outage lasts ten seconds whatever the load, as an operator's restart would.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    expect(count('down')).toBeGreaterThan(20);
    phase = 'starting';
    const upAgainAt = Date.now();
    cluster = await startEmbeddedPostgres(pgDir, () => {}, pgPort);
    phase = 'after';
    const startedAt = Date.now();
    await until(() => answers.filter((a) => a.phase === 'after').slice(-20).filter((a) => a.status === 200).length === 20, '20 answers of 200 in a row after the outage');
    loading = false;
    await clients;

    expect(answers.filter((a) => a.phase === 'before' && a.status !== 200)).toEqual([]);
    const down = answers.filter((a) => a.phase === 'down');
    expect(down.filter((a) => a.status !== 503)).toEqual([]);
    expect(new Set(down.filter((a) => a.path === '/api/admin/users').map((a) => a.error))).toEqual(new Set([databaseUnavailableMessage]));
    // Readiness says it in its own words, unless the session check before it needed the database.
    const readiness = new Set(down.filter((a) => a.path === '/api/health/ready').map((a) => a.error));
    expect([...readiness].filter((e) => e !== 'The database is not reachable.' && e !== databaseUnavailableMessage)).toEqual([]);
    // Whatever the moment, never a 500.
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    // Once the database answers, every answer is a 200: no flapping while the pool refills.
    const after = answers.filter((a) => a.phase === 'after');
    const firstOk = after.findIndex((a) => a.status === 200);
    expect(after.slice(firstOk).filter((a) => a.status !== 200)).toEqual([]);
    // The same process throughout: it never exited or restarted.
    expect(server.process.exitCode).toBeNull();
    expect(server.process.pid).toBe(pid);
    expect(server.output).not.toContain('"level":"error"');

    printFigures('Faults · PostgreSQL stopped for 10 s under load', {
      'load': '4 clients without pause: readiness and the admin user search (never cached)',
      'answers before / while stopping / down / starting / after': (['before', 'stopping', 'down', 'starting', 'after'] as const).map((p) => count(p)).join(' / '),
      'down for': seconds(upAgainAt - downAt),
      'answers while down: 503 / other': `${down.filter((a) => a.status === 503).length} / ${down.filter((a) => a.status !== 503).length}`,
      'PostgreSQL stop / start took': `${seconds(downAt - stopAt)} / ${seconds(startedAt - upAgainAt)}`,
      'answers after it started: 503 before the first 200 / 200 / other after it': `${firstOk} / ${after.slice(firstOk).filter((a) => a.status === 200).length} / ${after.slice(firstOk).filter((a) => a.status !== 200).length}`,
      'first 200 after PostgreSQL was up': seconds((after[firstOk]?.at ?? startedAt) - startedAt),
      'answers of 500': answers.filter((a) => a.status === 500).length,
      'server process': `pid ${pid} throughout, never restarted`,
      'load (1/5/15 min)': loadAverage(),
    });
  });
});
