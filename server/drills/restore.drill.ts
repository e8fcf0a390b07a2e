import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activityAnswer,
  confirmTotpAnswer,
  investorDocumentsAnswer,
  loginOrSecondStepAnswer,
  loginAnswer,
  startTotpAnswer,
  type ActivityEntry,
  type InvestorDocument,
} from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { loadConfig } from '../src/config';
import { openOrm } from '../src/db/orm';
import { seedDemoData } from '../src/db/seed';
import { backupLockKey } from '../src/features/backups/backup-runs';
import { createFileStore } from '../src/features/files/create-file-store';
import { buildIfChanged } from '../scripts/build';
import { ChildServer, serverDir } from '../test/child-server';
import { adminToken, loadAverage, pdfOfSize, printFigures, seconds, seededDrillData, storeIntegrity } from '../test/drill-kit';
import { createTestDatabase, type TestDatabase } from '../test/harness';
import { startLocalS3, type LocalS3 } from '../test/s3';
import { totpCode } from '../test/totp';
import { compareTables, readReceiptsAsOf, readTables, type TableRows } from './restore-snapshot';

// The restore drill: a seeded install publishes a quarter and is backed up by the compiled CLI
// while uploads and downloads go on; the archive is restored by the CLI into a fresh install,
// which a server of its own then serves to every investor, compared with the source. Then the
// faults: a backup killed half-way, an archive with one byte flipped, a restore into an install
// that is not empty, and the same round trip with the files and the backups in S3.

const backupKey = 'the-restore-drill-backup-key-0123456789abcdef';
const cli = path.join(serverDir, 'dist', 'cli.js');
const megabyte = 1024 * 1024;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The compiled CLI in a process of its own, as an operator runs it; its output is kept. */
class CliRun {
  stdout = '';
  stderr = '';
  /** Each line on standard error with the seconds since the start: the progress of a backup. */
  readonly progress: { at: number; line: string }[] = [];
  private readonly startedAt = performance.now();
  readonly process: ChildProcess;
  readonly exited: Promise<Exit>;

  constructor(args: string[], env: Record<string, string>) {
    this.process = spawn(process.execPath, ['--enable-source-maps', cli, ...args], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process.stdout?.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.process.stderr?.on('data', (chunk: Buffer) => {
      const whole = this.stderr.length;
      this.stderr += chunk.toString();
      // A line counts once it is whole: a chunk may end half-way through one.
      const lines = this.stderr.slice(this.stderr.lastIndexOf('\n', whole - 1) + 1).split('\n').slice(0, -1);
      for (const line of lines.filter(Boolean)) this.progress.push({ at: (performance.now() - this.startedAt) / 1000, line });
    });
    // 'close', not 'exit': the output is all read by then.
    this.exited = new Promise((resolve) => this.process.once('close', (code, signal) => resolve({ code, signal })));
  }

  /** The last line on standard output: the archive, for `backup`. */
  lastLine(): string {
    return this.stdout.trim().split('\n').at(-1) ?? '';
  }

  async finished(): Promise<Exit & { seconds: number }> {
    const exit = await this.exited;
    return { ...exit, seconds: (performance.now() - this.startedAt) / 1000 };
  }
}

/** Polls `probe` until it answers something truthy: the drill waits for states, never for times. */
async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs / 1000} s for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const mb = (bytes: number) => `${(bytes / megabyte).toFixed(1)} MB`;
const keyOf = (doc: Pick<InvestorDocument, 'documentType' | 'id'>) => `${doc.documentType}:${doc.id}`;
const withoutOpened = ({ opened: _opened, ...doc }: InvestorDocument) => JSON.stringify(doc);

async function query<T extends pg.QueryResultRow>(databaseUrl: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

// ---- The API, as the portal and the admin panel call it ----------------------------------------

async function post(url: string, route: string, body: unknown, token?: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/**
 * Signs in as the portal does: the password, then a code from the authenticator app for an
 * account that has one (a code of the next step: the current one may be the step used last).
 */
async function signIn(url: string, email: string, totpSecret?: string): Promise<{ token: string; secondStep: boolean }> {
  const first = await post(url, '/api/investor/login', { email, password: demoPassword });
  if (first.status !== 200) throw new Error(`${email} could not sign in: ${first.status} ${JSON.stringify(first.json)}`);
  const answer = loginOrSecondStepAnswer.parse(first.json);
  if ('token' in answer) {
    if (totpSecret) throw new Error(`${email} signed in with the password alone, though it has an authenticator app`);
    return { token: answer.token, secondStep: false };
  }
  if (!totpSecret || !answer.methods.includes('totp')) throw new Error(`${email} was asked for a second step (${answer.methods.join(', ')}) the drill did not give it`);
  const verified = await post(url, '/api/investor/login/verify', { mfaToken: answer.mfaToken, code: totpCode(totpSecret, 1) });
  if (verified.status !== 200) throw new Error(`${email}'s TOTP code was refused: ${verified.status} ${JSON.stringify(verified.json)}`);
  return { token: loginAnswer.parse(verified.json).token, secondStep: true };
}

async function documentsOf(url: string, token: string): Promise<InvestorDocument[]> {
  const res = await fetch(`${url}/api/investor/documents`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET /api/investor/documents answered ${res.status}`);
  return investorDocumentsAnswer.parse(await res.json()).documents.sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
}

async function download(url: string, token: string, doc: Pick<InvestorDocument, 'documentType' | 'id'>): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(`${url}/api/investor/download/${doc.id}${doc.documentType === 'personal' ? '?type=user' : ''}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Every page of the Activity tab, newest first. */
async function activityOf(url: string, token: string): Promise<ActivityEntry[]> {
  const entries: ActivityEntry[] = [];
  let before: number | null = null;
  do {
    const res = await fetch(`${url}/api/admin/activity?limit=100${before ? `&before=${before}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`GET /api/admin/activity answered ${res.status}`);
    const page = activityAnswer.parse(await res.json());
    entries.push(...page.entries);
    before = page.nextBefore;
  } while (before !== null);
  return entries;
}

async function uploadPropertyDocument(url: string, token: string, property: string, title: string, bytes: Buffer): Promise<{ status: number; key: string | null }> {
  const form = new FormData();
  for (const [name, value] of [['title', title], ['property', property], ['year', '2026'], ['quarter', 'Q3']] as const) form.set(name, value);
  form.set('document', new Blob([new Uint8Array(bytes)]), `${title.replace(/\W+/g, '-')}.pdf`);
  const res = await fetch(`${url}/api/admin/upload-document`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const answer = (await res.json()) as { document?: { id: number } };
  return { status: res.status, key: answer.document ? `property:${answer.document.id}` : null };
}

async function uploadPersonalDocument(url: string, token: string, email: string, category: string, title: string, bytes: Buffer): Promise<{ status: number; key: string | null }> {
  const form = new FormData();
  for (const [name, value] of [['userEmail', email], ['documentCategory', category], ['title', title], ['year', '2026'], ['quarter', 'Q3']] as const) form.set(name, value);
  form.set('document', new Blob([new Uint8Array(bytes)]), `${title.replace(/\W+/g, '-')}.pdf`);
  const res = await fetch(`${url}/api/admin/upload-user-document`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const answer = (await res.json()) as { document?: { id: number } };
  return { status: res.status, key: answer.document ? `personal:${answer.document.id}` : null };
}

// ---- An install and what it serves ---------------------------------------------------------------

interface Investor {
  id: number;
  email: string;
  properties: string[];
}

interface Install {
  /** DATABASE_URL, DATA_DIR and, in S3, FILE_STORE and the S3 settings. */
  env: Record<string, string>;
  databaseUrl: string;
  server?: ChildServer;
}

interface Source extends Install {
  server: ChildServer;
  admin: string;
  investors: Investor[];
  /** Each investor's session on the source. */
  tokens: Map<string, string>;
  totp: { email: string; secret: string };
}

/** What the source serves and holds at one moment: each investor's list, the Activity tab, every row. */
interface Reading {
  lists: Map<string, InvestorDocument[]>;
  activity: ActivityEntry[];
  tables: TableRows;
}

async function readSource(source: Source): Promise<Reading> {
  const lists = new Map<string, InvestorDocument[]>();
  for (const investor of source.investors) lists.set(investor.email, await documentsOf(source.server.url, source.tokens.get(investor.email) ?? ''));
  return { lists, activity: await activityOf(source.server.url, source.admin), tables: await readTables(source.databaseUrl) };
}

async function investorsOf(databaseUrl: string): Promise<Investor[]> {
  return query<Investor>(
    databaseUrl,
    `select u.id, u.email, coalesce(array_agg(p.name order by p.name) filter (where p.name is not null), '{}') as properties
       from users u left join property_access a on a.user_id = u.id left join properties p on p.id = a.property_id
      where u.role = 'user' group by u.id order by u.id`,
  );
}

/**
 * Publishes a quarter as the staff do: a report for every property an investor holds, a letter
 * and the audited financials for all, a statement and a K-1 for each investor; gives the first investor an
 * authenticator app; and has every investor open half of what they can read, so that read
 * receipts and 'New' badges differ from one document to the next.
 */
async function publishQuarter(install: Install & { server: ChildServer }, label: string, sizes: { report: number; statement: number; large: number }): Promise<Source> {
  const url = install.server.url;
  const admin = await adminToken(url);
  const investors = await investorsOf(install.databaseUrl);
  const properties = [...new Set(investors.flatMap((investor) => investor.properties))].sort();
  for (const [i, property] of [...properties, 'General'].entries()) {
    const title = property === 'General' ? `Q3 2026 Letter to Investors (${label})` : `Q3 2026 Quarterly Report: ${property} (${label})`;
    const sent = await uploadPropertyDocument(url, admin, property, title, pdfOfSize(`${label} ${title}`, sizes.report + i * 16 * 1024));
    expect(sent.status, title).toBe(200);
  }
  // Audited financials with their exhibits run to megabytes: more than a file store reads in one go.
  const audited = await uploadPropertyDocument(url, admin, 'General', `2026 Audited Financial Statements (${label})`, pdfOfSize(`${label} audited financials`, sizes.large));
  expect(audited.status).toBe(200);
  for (const investor of investors) {
    for (const [category, kind] of [['financial', 'Capital Account Statement'], ['tax', 'Schedule K-1']] as const) {
      const title = `Q3 2026 ${kind} (${label})`;
      const sent = await uploadPersonalDocument(url, admin, investor.email, category, title, pdfOfSize(`${label} ${investor.email} ${title}`, sizes.statement));
      expect(sent.status, `${investor.email}: ${title}`).toBe(200);
    }
  }

  const [first] = investors;
  if (!first) throw new Error('the demo data has no investor');
  const tokens = new Map<string, string>();
  for (const investor of investors) tokens.set(investor.email, (await signIn(url, investor.email)).token);
  // The second step as the portal sets it up: the password as proof, the app's first code.
  const started = await post(url, '/api/investor/second-step/totp/start', { currentPassword: demoPassword }, tokens.get(first.email));
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  const { secret } = startTotpAnswer.parse(started.json);
  const confirmed = await post(url, '/api/investor/second-step/totp/confirm', { code: totpCode(secret) }, tokens.get(first.email));
  expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);
  // Turning it on ended the account's sessions; this one goes on in the answer's token.
  tokens.set(first.email, confirmTotpAnswer.parse(confirmed.json).token ?? '');

  for (const investor of investors) {
    const token = tokens.get(investor.email) ?? '';
    for (const [i, doc] of (await documentsOf(url, token)).entries()) {
      if (i % 2 === 1) continue;
      expect((await download(url, token, doc)).status).toBe(200);
    }
  }
  return { ...install, server: install.server, admin, investors, tokens, totp: { email: first.email, secret } };
}

// ---- The backup under load -----------------------------------------------------------------------

interface LoadRequest {
  startedAt: number;
  endedAt: number;
  status: number;
  /** What it was, and what went wrong if anything did. */
  what: string;
  /** The document an upload made. */
  key: string | null;
}

/** One request after another until stopped, each recorded. */
function loop(step: (i: number) => Promise<Omit<LoadRequest, 'startedAt' | 'endedAt'>>): { requests: LoadRequest[]; stop: () => Promise<void> } {
  const requests: LoadRequest[] = [];
  let stopped = false;
  const running = (async () => {
    for (let i = 0; !stopped; i += 1) {
      const startedAt = performance.now();
      const result = await step(i).catch((error: unknown) => ({ status: 0, what: `request ${i} failed: ${String(error)}`, key: null }));
      requests.push({ ...result, startedAt, endedAt: performance.now() });
    }
  })();
  return {
    requests,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

interface BackupUnderLoad {
  archive: string;
  seconds: number;
  /** Seconds after the start: the snapshot read, the files copied. */
  phases: string;
  sizeBytes: number;
  files: number;
  rows: number;
  uploads: LoadRequest[];
  downloads: LoadRequest[];
  /** Requests answered between the backup's start and its end. */
  uploadsDuring: number;
  downloadsDuring: number;
  /** Documents whose upload was answered before the backup began. */
  acknowledgedBefore: string[];
}

const backedUp = /Backed up (\d+) rows and (\d+) files \((\d+) new\) into (\S+), (\d+) bytes\./;

/**
 * Runs `backup` while one loop uploads documents (property and personal) and another has
 * the investors download theirs, checking every byte. The loops run before the backup starts and
 * until it has ended, so both overlap all of it.
 */
async function backUpUnderLoad(source: Source, before: Reading, label: string, env: Record<string, string>, args: string[]): Promise<BackupUnderLoad> {
  const url = source.server.url;
  const expected = new Map<string, string>();
  const readable = source.investors.flatMap((investor) => (before.lists.get(investor.email) ?? []).map((doc) => ({ investor, doc })));
  for (const { investor, doc } of readable) {
    const got = await download(url, source.tokens.get(investor.email) ?? '', doc);
    expect(got.status).toBe(200);
    expected.set(`${investor.email} ${keyOf(doc)}`, sha256(got.bytes));
  }
  const uploads = loop(async (i) => {
    const investor = source.investors[i % source.investors.length] as Investor;
    const title = `Load ${label} ${i}`;
    const bytes = pdfOfSize(`${label} load upload ${i}`, 96 * 1024 + (i % 7) * 24 * 1024);
    // One in four for everyone (General), the others for one investor each: as a quarter's mix.
    const sent = i % 4 === 0 ? await uploadPropertyDocument(url, source.admin, 'General', title, bytes) : await uploadPersonalDocument(url, source.admin, investor.email, 'other', title, bytes);
    return { status: sent.status, what: title, key: sent.key };
  });
  const downloads = loop(async (i) => {
    const { investor, doc } = readable[(i * 7) % readable.length] as (typeof readable)[number];
    const got = await download(url, source.tokens.get(investor.email) ?? '', doc);
    // Other bytes count as a failure as much as another status does.
    const same = got.status !== 200 || sha256(got.bytes) === expected.get(`${investor.email} ${keyOf(doc)}`);
    return { status: same ? got.status : -1, what: `${investor.email} ${keyOf(doc)}${same ? '' : ': other bytes'}`, key: null };
  });
  await waitFor('both loops to answer', () => uploads.requests.length > 0 && downloads.requests.length > 0);

  const startedAt = performance.now();
  const backup = new CliRun(['backup', ...args], { ...source.env, ...env, BACKUP_KEY: backupKey });
  const exit = await backup.finished();
  const endedAt = performance.now();
  await Promise.all([uploads.stop(), downloads.stop()]);

  expect(exit, backup.stderr).toEqual(expect.objectContaining({ code: 0, signal: null }));
  const summary = backedUp.exec(backup.stderr);
  if (!summary) throw new Error(`backup said no summary:\n${backup.stderr}`);
  const during = (requests: LoadRequest[]) => requests.filter((r) => r.endedAt > startedAt && r.startedAt < endedAt).length;
  const failed = [...uploads.requests, ...downloads.requests].filter((r) => r.status !== 200);
  expect(failed.map((r) => `${r.what}: ${r.status}`)).toEqual([]);
  const at = (start: string) => backup.progress.find((p) => p.line.startsWith(start))?.at.toFixed(1) ?? '?';
  return {
    archive: backup.lastLine(),
    seconds: exit.seconds,
    phases: `${at('Read ')} / ${at('Copied ')} s`,
    sizeBytes: Number(summary[5]),
    files: Number(summary[2]),
    rows: Number(summary[1]),
    uploads: uploads.requests,
    downloads: downloads.requests,
    uploadsDuring: during(uploads.requests),
    downloadsDuring: during(downloads.requests),
    acknowledgedBefore: uploads.requests.filter((r) => r.endedAt < startedAt && r.key).map((r) => r.key as string),
  };
}

// ---- The restored install, compared ---------------------------------------------------------------

/** An empty, migrated database and an empty data folder (and, in S3, an empty prefix): a fresh install. */
async function freshInstall(extra: Record<string, string> = {}): Promise<Install & { database: TestDatabase; dataDir: string; close: () => Promise<void> }> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-restore-drill-target-'));
  chmodSync(dataDir, 0o755);
  return {
    env: { DATABASE_URL: database.url, DATA_DIR: dataDir, ...extra },
    databaseUrl: database.url,
    database,
    dataDir,
    close: async () => {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Checked {
  mismatches: string[];
  /** Investor × document pairs listed and downloaded. */
  documents: number;
  distinctDocuments: number;
  accounts: number;
  bytes: number;
  storedFiles: number;
  rows: number;
}

/** Each stored file's bytes, hashed: a file whose bytes are not its name is a mismatch. */
async function storeContents(env: Record<string, string>): Promise<{ hashes: Set<string>; damaged: string[] }> {
  const files = await createFileStore(loadConfig({ ...env, LOG_LEVEL: 'error' }));
  try {
    const hashes = new Set<string>();
    const damaged: string[] = [];
    for (const { sha256: name } of await files.list()) {
      const opened = await files.open(name);
      if (!opened) {
        damaged.push(`${name}: listed but cannot be opened`);
        continue;
      }
      const hash = createHash('sha256');
      await opened.writeTo(new Writable({ write: (chunk: Buffer, _encoding, done) => (hash.update(chunk), done()) }), { start: 0, end: opened.size - 1 });
      await opened.close();
      if (hash.digest('hex') !== name) damaged.push(`${name}: other bytes`);
      hashes.add(name);
    }
    return { hashes, damaged };
  } finally {
    files.close();
  }
}

/**
 * Compares the restored install with the source, by what the backup's snapshot held: the rows
 * (read before the restored server starts), every investor's list, bytes and sign-in, the
 * Activity tab and the read receipts, and the stored files.
 */
async function checkRestored(source: Source, before: Reading, after: Reading, backup: BackupUnderLoad, restored: Install): Promise<Checked> {
  const mismatches: string[] = [];
  const tables = await readTables(restored.databaseUrl);
  const auditIds = [...(tables.audit_events ?? new Map<string, string>()).keys()].map(Number);
  const reads = await readReceiptsAsOf(source.databaseUrl, auditIds);
  const compared = compareTables(before.tables, after.tables, tables, {
    // What the loops write: documents, their files, their audit rows (uploads and reads).
    appendOnly: new Set(['audit_events', 'property_documents', 'user_documents', 'document_versions', 'stored_files']),
    exact: { document_reads: reads },
    elsewhere: new Set(['backup_runs']),
  });
  mismatches.push(...compared.mismatches);

  // The backup's own run is in its snapshot, written before it began; the restore marks it as
  // the archive it restored, succeeded.
  const runs = tables.backup_runs ?? new Map<string, string>();
  const ownRuns = [...runs.keys()].filter((id) => !before.tables.backup_runs?.has(id));
  const own = ownRuns.length === 1 ? (JSON.parse(runs.get(ownRuns[0] as string) ?? '{}') as { outcome?: string }) : null;
  if (own?.outcome !== 'succeeded') mismatches.push(`backup_runs: expected the backup's own run, succeeded, beside the ${before.tables.backup_runs?.size ?? 0} before it; found ${runs.size} rows`);
  for (const [id, row] of before.tables.backup_runs ?? []) if (runs.get(id) !== row) mismatches.push(`backup_runs: run ${id} is not as it was`);

  const snapshotDocuments = new Set([
    ...[...(tables.property_documents ?? new Map<string, string>()).keys()].map((id) => `property:${id}`),
    ...[...(tables.user_documents ?? new Map<string, string>()).keys()].map((id) => `personal:${id}`),
  ]);
  const missing = backup.acknowledgedBefore.filter((key) => !snapshotDocuments.has(key));
  if (missing.length > 0) mismatches.push(`uploads answered before the backup began are not in it: ${missing.join(', ')}`);

  const store = await storeContents(restored.env);
  const named = new Set((await query<{ sha256: string }>(restored.databaseUrl, 'select sha256 from stored_files')).map((row) => row.sha256));
  mismatches.push(...store.damaged);
  const unnamed = [...store.hashes].filter((hash) => !named.has(hash));
  const absent = [...named].filter((hash) => !store.hashes.has(hash));
  if (unnamed.length + absent.length > 0) mismatches.push(`stored files: ${absent.length} rows without their file, ${unnamed.length} files without a row`);
  if (!restored.env.FILE_STORE) {
    // On disk, also no document without its file, no file without its document, no temp file.
    const integrity = await storeIntegrity(restored.databaseUrl, path.join(restored.env.DATA_DIR ?? '', 'files'));
    if (integrity.rowsWithoutFile || integrity.filesWithoutRow || integrity.tempFiles) mismatches.push(`store integrity: ${JSON.stringify(integrity)}`);
  }

  // The generated secrets come back: without them sessions and second steps would not open.
  for (const name of ['jwt', 'second-step', 'altcha']) {
    const [was, is] = await Promise.all([source.env, restored.env].map((env) => readFile(path.join(env.DATA_DIR ?? '', `${name}.secret`), 'utf8').catch(() => null)));
    if (!was || was !== is) mismatches.push(`${name}.secret is not the source's`);
  }

  const server = await ChildServer.start(restored.env, cli);
  restored.server = server;
  let documents = 0;
  let bytes = 0;
  const distinct = new Set<string>();
  const opened = new Set([...reads.values()].map((row) => JSON.parse(row) as { user_id: number; document_type: string; document_id: number }).map((r) => `${r.user_id} ${r.document_type}:${r.document_id}`));
  for (const investor of source.investors) {
    const totp = investor.email === source.totp.email ? source.totp.secret : undefined;
    const { token, secondStep } = await signIn(server.url, investor.email, totp);
    if (totp && !secondStep) mismatches.push(`${investor.email} signed in without the second step`);
    const sourceToken = source.tokens.get(investor.email) ?? '';
    const list = await documentsOf(server.url, token);
    const listed = new Map(list.map((doc) => [keyOf(doc), doc]));
    const expected = (after.lists.get(investor.email) ?? []).filter((doc) => snapshotDocuments.has(keyOf(doc)));
    const earlier = (before.lists.get(investor.email) ?? []).filter((doc) => !listed.has(keyOf(doc)));
    if (earlier.length > 0) mismatches.push(`${investor.email}: ${earlier.length} documents listed before the backup are not listed (${earlier.map(keyOf).join(', ')})`);
    if (JSON.stringify(list.map(withoutOpened)) !== JSON.stringify(expected.map(withoutOpened))) {
      mismatches.push(`${investor.email}: lists ${list.length} documents where the source listed ${expected.length} of the snapshot, or other details`);
    }
    for (const doc of list) {
      if (doc.opened !== opened.has(`${investor.id} ${keyOf(doc)}`)) mismatches.push(`${investor.email} ${keyOf(doc)}: opened is ${doc.opened}, not as the read receipts have it`);
      const [here, there] = await Promise.all([download(server.url, token, doc), download(source.server.url, sourceToken, doc)]);
      if (here.status !== 200 || there.status !== 200 || sha256(here.bytes) !== sha256(there.bytes)) {
        mismatches.push(`${investor.email} ${keyOf(doc)}: the restored download (${here.status}, ${here.bytes.length} bytes) is not the source's (${there.status}, ${there.bytes.length} bytes)`);
      }
      documents += 1;
      bytes += here.bytes.length;
      distinct.add(keyOf(doc));
    }
  }

  const activity = await activityOf(server.url, await adminToken(server.url));
  const inSnapshot = new Set(auditIds);
  const expectedActivity = after.activity.filter((entry) => inSnapshot.has(entry.id));
  if (JSON.stringify(activity) !== JSON.stringify(expectedActivity)) {
    mismatches.push(`the Activity tab lists ${activity.length} entries where the source's, as of the snapshot, has ${expectedActivity.length}, or other details`);
  }
  const lost = before.activity.filter((entry) => !activity.some((e) => e.id === entry.id));
  if (lost.length > 0) mismatches.push(`the Activity tab lost ${lost.length} entries from before the backup`);

  return { mismatches, documents, distinctDocuments: distinct.size, accounts: source.investors.length, bytes, storedFiles: store.hashes.size, rows: compared.rows };
}

/** Restores `archive` into `target` with the CLI; answers its seconds. */
async function restoreWithCli(archive: string, target: Install): Promise<number> {
  const restore = new CliRun(['restore', archive], { ...target.env, BACKUP_KEY: backupKey });
  const exit = await restore.finished();
  expect(exit, restore.stderr).toEqual(expect.objectContaining({ code: 0, signal: null }));
  expect(restore.stderr).toContain('every one compared with the backup: no difference');
  return exit.seconds;
}

/** Files anywhere under `dir` (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Whether some process holds the backup lock on this database: a backup is being taken there. */
async function backupLockHeld(databaseUrl: string): Promise<boolean> {
  const key = BigInt.asUintN(64, backupLockKey);
  const [row] = await query<{ held: boolean }>(
    databaseUrl,
    `select exists (select 1 from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())
                      and classid = $1 and objid = $2 and objsubid = 1) as held`,
    [Number(key >> 32n), Number(key & 0xffffffffn)],
  );
  return row?.held ?? false;
}

const figures: Record<string, string | number> = {};
const allMismatches: string[] = [];
const steps = { run: 0, passed: 0 };

/** A step of the drill, counted: the figures say how many passed, as a failed step prints none of its own. */
function step(name: string, body: () => Promise<void>): void {
  steps.run += 1;
  it(name, async () => {
    await body();
    steps.passed += 1;
  });
}

describe('restore drill: a backup taken under load restores whole into a fresh install', () => {
  const cleanups: (() => unknown)[] = [];
  let source: Source;
  let before: Reading;
  let after: Reading;
  let backup: BackupUnderLoad;
  let backupsDir = '';
  let sourceFilesDir = '';

  beforeAll(async () => {
    // The drill runs what an operator runs: the compiled CLI, built now if its sources changed.
    await buildIfChanged('server');
    const seeded = await seededDrillData('restore-drill');
    sourceFilesDir = seeded.filesDir;
    cleanups.push(() => rmSync(seeded.dataDir, { recursive: true, force: true }), () => seeded.database.drop());
    backupsDir = mkdtempSync(path.join(os.tmpdir(), 'everest-restore-drill-backups-'));
    cleanups.push(() => rmSync(backupsDir, { recursive: true, force: true }));
    const env = { DATABASE_URL: seeded.database.url, DATA_DIR: seeded.dataDir };
    const server = await ChildServer.start(env, cli);
    cleanups.push(() => server.stop());
    source = await publishQuarter({ env, databaseUrl: seeded.database.url, server }, 'folder', { report: 400 * 1024, statement: 120 * 1024, large: 3 * megabyte });
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  step('backs up with the CLI while uploads and downloads go on: every request answers 200, the backup exits 0', async () => {
    before = await readSource(source);
    backup = await backUpUnderLoad(source, before, 'folder', {}, ['--to', backupsDir]);
    after = await readSource(source);
    expect(backup.archive).toMatch(new RegExp(`^${backupsDir}/everest-backup-.*\\.tar\\.enc$`));
    expect(backup.uploadsDuring).toBeGreaterThan(0);
    expect(backup.downloadsDuring).toBeGreaterThan(0);
    Object.assign(figures, {
      'backup under load: seconds (CLI start to exit)': seconds(backup.seconds * 1000),
      'backup: snapshot read / files copied, after': backup.phases,
      'backup: rows / files / archive size': `${backup.rows} / ${backup.files} / ${mb(backup.sizeBytes)}`,
      'uploads / downloads answered during the backup (all 200)': `${backup.uploadsDuring} / ${backup.downloadsDuring}`,
    });
  });

  step('restores with the CLI into a fresh database and folder that serve every investor the same documents, bytes, second step, activity and read receipts', async () => {
    const target = await freshInstall();
    cleanups.push(async () => {
      await target.server?.stop();
      await target.close();
    });
    const restoreSeconds = await restoreWithCli(backup.archive, target);
    const checked = await checkRestored(source, before, after, backup, target);
    allMismatches.push(...checked.mismatches);
    expect(checked.mismatches).toEqual([]);
    expect(checked.accounts).toBeGreaterThanOrEqual(6);
    expect(checked.distinctDocuments).toBeGreaterThan(20);
    Object.assign(figures, {
      'restore: seconds (CLI start to exit)': seconds(restoreSeconds * 1000),
      'investors checked (signed in, one with its TOTP second step)': checked.accounts,
      'documents checked (investor × document, distinct)': `${checked.documents} (${checked.distinctDocuments})`,
      'bytes compared by sha256 (downloads)': mb(checked.bytes),
      'stored files checked, rows compared': `${checked.storedFiles}, ${checked.rows}`,
    });
  });

  step('a backup killed with SIGKILL half-way leaves no archive, only leftovers under .partial/, and the next backup succeeds and verifies', async () => {
    // The next quarter's large documents: the place lacks them, so the backup spends its time copying.
    for (let i = 0; i < 16; i += 1) {
      const sent = await uploadPropertyDocument(source.server.url, source.admin, 'General', `Q4 2026 Annual Audit, part ${i + 1}`, pdfOfSize(`audit part ${i}`, 6 * megabyte));
      expect(sent.status).toBe(200);
    }
    const archivesBefore = (await readdir(backupsDir)).filter((name) => name.startsWith('everest-backup-')).sort();
    const filesDir = path.join(backupsDir, 'files');
    const filesBefore = (await readdir(filesDir)).length;
    // Every file the place holds is one of the source's (the first backup's): the rest are new.
    const [stored] = await query<{ n: number }>(source.databaseUrl, 'select count(*)::int as n from stored_files');
    const needed = (stored?.n ?? 0) - filesBefore;

    const killed = new CliRun(['backup', '--to', backupsDir], { ...source.env, BACKUP_KEY: backupKey });
    // Half-way: the snapshot read, some of the new files copied, others not yet.
    await waitFor('the backup to copy its first new file', async () => killed.stderr.includes('Read ') && (await readdir(filesDir)).length > filesBefore, 120_000);
    killed.process.kill('SIGKILL');
    const exit = await killed.exited;
    expect(exit.signal).toBe('SIGKILL');

    const entries = (await readdir(backupsDir)).sort();
    const filesAfterKill = (await readdir(filesDir)).length;
    const leftovers = await readdir(path.join(backupsDir, '.partial')).catch(() => [] as string[]);
    expect(entries.filter((name) => name.startsWith('everest-backup-'))).toEqual(archivesBefore);
    expect(entries.filter((name) => !archivesBefore.includes(name) && name !== 'files' && name !== '.partial')).toEqual([]);
    expect(filesAfterKill).toBeLessThan(filesBefore + needed);

    // The run it left 'running' in the source; the session's end released the lock.
    await waitFor('the killed backup’s lock to be released', async () => !(await backupLockHeld(source.databaseUrl)));
    const next = new CliRun(['backup', '--to', backupsDir], { ...source.env, BACKUP_KEY: backupKey });
    const nextExit = await next.finished();
    expect(nextExit, next.stderr).toEqual(expect.objectContaining({ code: 0, signal: null }));
    const summary = backedUp.exec(next.stderr);
    expect(summary).not.toBeNull();
    // It copies what the killed one had not: the files the killed one left in files/ are whole.
    const copied = Number(summary?.[3]);
    expect(copied).toBe(needed - (filesAfterKill - filesBefore));
    const [killedRun] = await query<{ outcome: string; message: string }>(source.databaseUrl, `select outcome, message from backup_runs order by id desc offset 1 limit 1`);
    expect(killedRun).toEqual({ outcome: 'failed', message: 'It stopped before it finished: the process taking it ended.' });

    const verify = new CliRun(['backup', '--verify', next.lastLine()], { ...source.env, BACKUP_KEY: backupKey });
    const verifyExit = await verify.finished();
    expect(verifyExit, verify.stderr).toEqual(expect.objectContaining({ code: 0, signal: null }));
    expect(verify.stderr).toContain('is sound: it restores whole');
    Object.assign(figures, {
      'killed backup: new files copied before SIGKILL / archives written / leftovers in .partial': `${filesAfterKill - filesBefore} of ${needed} / 0 / ${leftovers.length}`,
      'next backup: seconds, new files it still had to copy': `${seconds(nextExit.seconds * 1000)}, ${copied}`,
      'backup --verify of it: seconds': seconds(verifyExit.seconds * 1000),
    });
  });

  step('refuses an archive with one byte flipped ("does not authenticate") and writes nothing', async () => {
    const bytes = await readFile(backup.archive);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = (bytes[middle] ?? 0) ^ 0x01;
    const damaged = path.join(backupsDir, `damaged-${path.basename(backup.archive)}`);
    await writeFile(damaged, bytes);
    const target = await freshInstall();
    cleanups.push(() => target.close());
    const pristine = await readTables(target.databaseUrl);
    const restore = new CliRun(['restore', damaged], { ...target.env, BACKUP_KEY: backupKey });
    const exit = await restore.finished();
    expect(exit.code).not.toBe(0);
    expect(restore.stderr).toContain('does not authenticate');
    const [users] = await query<{ n: number }>(target.databaseUrl, 'select count(*)::int as n from users');
    expect(users?.n).toBe(0);
    // Not a row anywhere: the database is as the fresh install's migrations left it.
    const rows = await readTables(target.databaseUrl);
    expect(Object.fromEntries(Object.entries(rows).map(([name, table]) => [name, [...table]]))).toEqual(
      Object.fromEntries(Object.entries(pristine).map(([name, table]) => [name, [...table]])),
    );
    expect(await filesUnder(path.join(target.dataDir, 'files'))).toEqual([]);
    figures['flipped byte: restore exit code, sentence'] = `${exit.code}, "${restore.stderr.trim().split('\n').at(-1)}"`;
  });

  step('refuses to restore into an install that is not empty, and leaves it as it was', async () => {
    const was = await readTables(source.databaseUrl);
    const filesWere = (await filesUnder(sourceFilesDir)).sort();
    const restore = new CliRun(['restore', backup.archive], { ...source.env, BACKUP_KEY: backupKey });
    const exit = await restore.finished();
    expect(exit.code).not.toBe(0);
    expect(restore.stderr).toMatch(/The install is not empty \(table \w+ has rows\): a restore goes only into a fresh install\./);
    const is = await readTables(source.databaseUrl);
    for (const table of ['users', 'property_documents', 'user_documents', 'stored_files', 'audit_events', 'document_reads', 'second_steps']) {
      expect([...(is[table] ?? [])], table).toEqual([...(was[table] ?? [])]);
    }
    expect((await filesUnder(sourceFilesDir)).sort()).toEqual(filesWere);
    figures['restore into the source: exit code, sentence'] = `${exit.code}, "${restore.stderr.trim().split('\n').at(-1)?.slice(0, 60)}…"`;
  });
});

describe('restore drill in S3: files and backups in a bucket, restored into a fresh prefix', () => {
  const cleanups: (() => unknown)[] = [];
  let s3: LocalS3;

  beforeAll(async () => {
    s3 = await startLocalS3('everest-restore-drill');
    cleanups.push(() => s3.close());
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  step('backs up under load into the bucket and restores into a fresh prefix that serves every investor the same', async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-restore-drill-s3-'));
    chmodSync(dataDir, 0o755);
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => database.drop());
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, ...s3.env('source-files') };
    const orm = await openOrm(database.url);
    const files = await createFileStore(loadConfig({ ...env, LOG_LEVEL: 'error' }));
    try {
      await seedDemoData(orm.em.fork(), files);
    } finally {
      files.close();
      await orm.close(true);
    }
    const server = await ChildServer.start(env, cli);
    cleanups.push(() => server.stop());
    const s3Source = await publishQuarter({ env, databaseUrl: database.url, server }, 's3', { report: 160 * 1024, statement: 64 * 1024, large: 2 * megabyte });

    const s3Before = await readSource(s3Source);
    const s3Backup = await backUpUnderLoad(s3Source, s3Before, 's3', { BACKUP_TO: `s3://${s3.bucket}/backups` }, []);
    const s3After = await readSource(s3Source);
    expect(s3Backup.archive).toMatch(new RegExp(`^s3://${s3.bucket}/backups/everest-backup-.*\\.tar\\.enc$`));
    expect(s3Backup.uploadsDuring).toBeGreaterThan(0);
    expect(s3Backup.downloadsDuring).toBeGreaterThan(0);

    const target = await freshInstall(s3.env('restored-files'));
    cleanups.push(async () => {
      await target.server?.stop();
      await target.close();
    });
    const restoreSeconds = await restoreWithCli(s3Backup.archive, target);
    const checked = await checkRestored(s3Source, s3Before, s3After, s3Backup, target);
    allMismatches.push(...checked.mismatches);
    expect(checked.mismatches).toEqual([]);
    Object.assign(figures, {
      'S3: backup under load / restore seconds': `${seconds(s3Backup.seconds * 1000)} / ${seconds(restoreSeconds * 1000)}`,
      'S3: uploads / downloads during the backup (all 200)': `${s3Backup.uploadsDuring} / ${s3Backup.downloadsDuring}`,
      'S3: investors, documents (distinct), bytes compared, stored files': `${checked.accounts}, ${checked.documents} (${checked.distinctDocuments}), ${mb(checked.bytes)}, ${checked.storedFiles}`,
    });
  });
});

describe('restore drill figures', () => {
  it('prints them, with no mismatch', () => {
    printFigures('Restore drill', { 'steps passed': `${steps.passed} of ${steps.run}`, ...figures, mismatches: allMismatches.length, 'load (1/5/15 min)': loadAverage() });
    expect(allMismatches).toEqual([]);
    expect(steps.passed).toBe(steps.run);
  });
});
