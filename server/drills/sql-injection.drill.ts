import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '@everest/fixtures';
import { ChildServer } from '../test/child-server';
import { createTestDatabase, type TestDatabase } from '../test/harness';
import { runBounded } from './run-bounded';
import { openOrm } from '../src/db/orm';
import { seedDemoData } from '../src/db/seed';
import { LocalFileStore } from '../src/features/files/local-file-store';

// sqlmap (Debian's package) against the server's sign-in, searches, paging and ids, run against
// a server process of our own on 127.0.0.1 and nothing else. Bounded: level 2, risk 1,
// PostgreSQL's payloads only, two-second delays for the time-based tests, a time limit per target.
// `pnpm drill` installs sqlmap first (scripts/drill-setup.sh); run alone without it, the drill
// fails at once with a sentence, never waits on a program that did not start.

interface Target {
  what: string;
  /** The address, with `*` where sqlmap puts its payloads in a path. */
  url: string;
  /** A JSON body for a POST (each value is tested). */
  data?: string;
  /** The query parameters to test; none for a path or a body. */
  params?: string;
  signedIn: boolean;
}

interface Verdict {
  what: string;
  tested: string[];
  injectable: string[];
  /** Parameters sqlmap left untested (it skips those it takes for type-cast). */
  skipped: string[];
  /** The error statuses it was answered, as sqlmap counts them: '400×140 429×3'. */
  codes: string;
  seconds: number;
  exit: number | null;
}

const targets: Target[] = [
  { what: 'sign-in (e-mail, password)', url: '/api/investor/login', data: '{"email":"investor@example.com","password":"not-the-password"}', signedIn: false },
  { what: 'user search and paging', url: '/api/admin/users?search=smith&page=1&limit=10', params: 'search,page,limit', signedIn: true },
  { what: 'personal documents search and paging', url: '/api/admin/user-documents?search=k1&page=1&limit=10', params: 'search,page,limit', signedIn: true },
  { what: 'property id (path)', url: '/api/admin/property/1*', signedIn: true },
  { what: 'document id (path) and type', url: '/api/investor/download/1*?type=property', signedIn: true },
  { what: 'user id (path)', url: '/api/admin/read-receipts/investors/3*', signedIn: true },
  { what: 'user id (query)', url: '/api/admin/second-step?userId=3', params: 'userId', signedIn: true },
];

/** Seconds one target may take: sqlmap is stopped after that and the target counts as failed. */
const targetSeconds = 90;

export const sqlmapMissing =
  'sqlmap is not installed: run pnpm drill (scripts/drill-setup.sh installs it) or apt-get install sqlmap.';

const runSqlmap = (args: string[]) => runBounded('sqlmap', args, targetSeconds);

/** The parameters sqlmap tested, skipped and found injectable, from its log lines. */
export function readVerdict(output: string): Pick<Verdict, 'tested' | 'injectable' | 'skipped' | 'codes'> {
  const names = (pattern: RegExp) => [...new Set([...output.matchAll(pattern)].map((match) => match[1]!))];
  const codes = /HTTP error codes detected during run:\s*\n(.*)/.exec(output)?.[1] ?? '';
  return {
    tested: names(/testing for SQL injection on (?:\(custom\) )?\w+ parameter '([^']+)'/g),
    injectable: [
      ...names(/parameter '([^']+)' (?:is|appears to be) '[^']*' injectable/g),
      ...names(/^Parameter: (.+) \((?:custom )?\w+\)$/gm),
    ].filter((name, i, all) => all.indexOf(name) === i),
    skipped: names(/skipping (?:\(custom\) )?\w+ parameter '([^']+)'/g),
    codes: [...codes.matchAll(/(\d{3}) \([^)]*\) - (\d+) times/g)].map(([, code, n]) => `${code}×${n}`).join(' '),
  };
}

describe('sqlmap against sign-in, searches, paging and ids', () => {
  let database: TestDatabase;
  let dataDir = '';
  let outputDir = '';
  let server: ChildServer | undefined;
  let token = '';
  const verdicts: Verdict[] = [];

  beforeAll(async () => {
    const version = await runBounded('sqlmap', ['--version'], 30);
    if (version.error?.code === 'ENOENT') throw new Error(sqlmapMissing);
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-sqlmap-data-'));
    outputDir = mkdtempSync(path.join(os.tmpdir(), 'everest-sqlmap-out-'));
    chmodSync(dataDir, 0o755);
    // TRUST_PROXY: sqlmap's xforwardedfor tamper gives each request an address of its own, so the
    // sign-in's limit per address does not turn its tests into a wall of 429s.
    server = await ChildServer.start({ DATABASE_URL: database.url, DATA_DIR: dataDir, TRUST_PROXY: 'true' });
    const orm = await openOrm(database.url);
    await seedDemoData(orm.em.fork(), new LocalFileStore(path.join(dataDir, 'files')));
    await orm.close(true);
    const res = await fetch(`${server.url}/api/investor/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: demoPassword }),
    });
    token = ((await res.json()) as { token: string }).token;
    // The server starts through tsx: on a loaded machine that alone takes a minute.
  }, 300_000);
  afterAll(async () => {
    console.log(
      [
        'sqlmap (level 2, risk 1, PostgreSQL payloads) against 127.0.0.1',
        `${'target'.padEnd(38)} ${'parameters tested'.padEnd(30)} ${'injectable'.padEnd(10)} ${'seconds'.padStart(7)}  refusals seen`,
        ...verdicts.map(
          (v) =>
            `${v.what.padEnd(38)} ${v.tested.join(', ').padEnd(30)} ${String(v.injectable.length).padEnd(10)} ${v.seconds.toFixed(0).padStart(7)}  ${v.codes}`,
        ),
        `injectable parameters: ${verdicts.reduce((n, v) => n + v.injectable.length, 0)}`,
      ].join('\n'),
    );
    await server?.stop();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  });

  it('reads a finding from sqlmap\'s report, so that a real one fails the drill', () => {
    const report = [
      "[10:00:01] [INFO] testing for SQL injection on GET parameter 'search'",
      "[10:00:02] [INFO] GET parameter 'search' appears to be 'PostgreSQL AND boolean-based blind' injectable",
      'sqlmap identified the following injection point(s) with a total of 42 HTTP(s) requests:',
      'Parameter: search (GET)',
      "[10:00:03] [INFO] skipping GET parameter 'page'",
    ].join('\n');
    expect(readVerdict(report)).toMatchObject({ tested: ['search'], injectable: ['search'], skipped: ['page'] });
  });

  for (const target of targets) {
    it(`finds no injectable parameter in ${target.what}`, async () => {
      if (!server) throw new Error('no server');
      const headers = ['Accept: application/json', ...(target.signedIn ? [`Authorization: Bearer ${token}`] : [])];
      const args = [
        '-u',
        `${server.url}${target.url}`,
        '--batch',
        '--level=2',
        '--risk=1',
        '--dbms=PostgreSQL',
        '--time-sec=2',
        '--timeout=10',
        '--retries=1',
        '--threads=2',
        '--tamper=xforwardedfor',
        `--headers=${headers.join('\n')}`,
        `--output-dir=${outputDir}`,
        '--flush-session',
        // Asked when a parameter looks type-cast (an id refused unless numeric): test it anyway.
        '--answers=skip those=N',
        '--disable-coloring',
        // A refusal of the injected value (400) or a rate limit (429) is an answer to compare, not an error to stop at.
        '--ignore-code=400,401,404,429',
        ...(target.data ? [`--data=${target.data}`] : []),
        ...(target.params ? [`-p`, target.params] : []),
      ];
      const { output, exit, seconds, error } = await runSqlmap(args);
      if (error) throw new Error(error.code === 'ENOENT' ? sqlmapMissing : `sqlmap did not start: ${error.message}`);
      const verdict: Verdict = { what: target.what, ...readVerdict(output), seconds, exit };
      verdicts.push(verdict);
      expect(verdict.tested.length, output.slice(-3000)).toBeGreaterThan(0);
      expect(verdict.skipped, output.slice(-3000)).toEqual([]);
      expect(verdict.injectable, output.slice(-3000)).toEqual([]);
      expect(output).not.toMatch(/identified the following injection point/);
      // The server answered every one of them without falling over.
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    });
  }
});
