import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { createLogger, logDestination } from '../src/logger';
import { BackupKey } from '../src/features/backups/archive-crypto';
import { FolderPlace } from '../src/features/backups/backup-place';
import { runBackup, type BackupContext } from '../src/features/backups/backup-runs';
import { assertEmptyInstall, checkArchive, restoreArchive } from '../src/features/backups/restore-backup';
import type { BackupResult } from '../src/features/backups/take-backup';
import { createFileStore } from '../src/features/files/create-file-store';
import { ChildServer, serverDir } from '../test/child-server';
import type { BenchServer } from './bench-server';
import { populate, signIn } from './documents';

// As production: every archive and file encrypted with BACKUP_KEY (at least 32 characters).
const backupKey = 'a-backup-key-for-the-bench-only-0123456789';
const secondBackupGoalMs = 10_000;
const restoreGoalMs = 5 * 60_000;
/** `backup --verify` is run only if a whole restore took less than this: it is another one. */
const verifyWithinMs = 2 * 60_000;

/** Milliseconds since `started`, from the lines an operation reports as it goes. */
class Phases {
  private readonly started = performance.now();
  private last = this.started;
  readonly marks: [string, number][] = [];

  /** Closes the phase that ends now under `name`. */
  mark(name: string): void {
    const now = performance.now();
    this.marks.push([name, now - this.last]);
    this.last = now;
  }

  /** An onProgress that closes a phase at the first line matching each pattern. */
  onProgress(ends: [RegExp, string][]): (line: string) => void {
    const waiting = [...ends];
    return (line) => {
      const next = waiting[0];
      if (next && next[0].test(line)) {
        waiting.shift();
        this.mark(next[1]);
      }
    };
  }

  get totalMs(): number {
    return this.last - this.started;
  }

  toString(): string {
    return this.marks.map(([name, ms]) => `${name} ${seconds(ms)}`).join(', ');
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const loadAverage = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** runBackup as the `backup` command calls it, into `place`, with its phases. */
async function timedBackup(server: BenchServer, place: string): Promise<{ result: BackupResult; phases: Phases }> {
  const { config } = server.services;
  const context: BackupContext = {
    orm: server.services.orm,
    databaseUrl: server.databaseUrl,
    files: server.services.files,
    dataDir: config.dataDir,
    backups: { ...config.backups, key: backupKey, to: { kind: 'folder', path: place } },
    secretsFromEnvironment: config.secretsFromEnvironment,
    logger: server.services.logger,
  };
  const phases = new Phases();
  const result = await runBackup(context, {
    trigger: 'command',
    onProgress: phases.onProgress([
      [/^Read \d+ rows/, 'lock, key and snapshot (COPY)'],
      [/^Copied \d+ new files/, 'files'],
    ]),
  });
  phases.mark('tar, encryption and run record');
  if (result === 'busy') throw new Error('another backup holds the lock');
  return { result, phases };
}

/** An empty database on the bench's PostgreSQL, as an operator makes one for DATABASE_URL. */
async function emptyDatabase(sourceUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new URL(sourceUrl);
  admin.pathname = '/postgres';
  const name = `everest_bench_restore_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(sourceUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}

/**
 * `restore ARCHIVE` as backup-commands.ts runs it, into a new empty database and DATA_DIR, then
 * `start` on that install in a process of its own, as the operator does next, timed to its
 * first answer (GET /api/health 200) and to an investor's first document list.
 */
async function timedRestore(place: string, archive: string, databaseUrl: string, dataDir: string): Promise<{ phases: Phases; documents: number; serverOutput: string }> {
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error', BACKUP_KEY: backupKey });
  const logger = createLogger('error', logDestination('/dev/null'));
  const phases = new Phases();
  const key = BackupKey.fromSecret(backupKey);
  phases.mark('key (scrypt)');
  const db = await openDatabase(config, logger);
  const files = await createFileStore(config);
  try {
    const target = { orm: db.orm, databaseUrl: db.url, files, dataDir: config.dataDir };
    await assertEmptyInstall(target);
    phases.mark('empty-install check');
    const checked = await checkArchive(new FolderPlace(place), archive, key, files.tempDir, phases.onProgress([[/^Checked the archive/, 'check (decrypt, untar, hashes, files staged)']]));
    try {
      await restoreArchive(target, checked, phases.onProgress([[/^Restored \d+ rows/, 'schema and rows (migrations, COPY in, read-back)']]));
      phases.mark('files, secrets, newer migrations');
    } finally {
      await checked.discard();
    }
  } finally {
    files.close();
    await db.close();
  }
  const child = await ChildServer.start({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
  try {
    const health = await fetch(`${child.url}/api/health`);
    if (health.status !== 200) throw new Error(`the restored server answered GET /api/health with ${health.status}`);
    phases.mark('start to GET /api/health 200');
    const token = await signIn(child, 'bench10@example.com');
    const list = await fetch(`${child.url}/api/investor/documents`, { headers: { authorization: `Bearer ${token}` } });
    if (list.status !== 200) throw new Error(`the restored server answered the document list with ${list.status}`);
    const { documents } = (await list.json()) as { documents: unknown[] };
    phases.mark('sign-in and first document list');
    return { phases, documents: documents.length, serverOutput: child.output };
  } finally {
    await child.stop();
  }
}

/** `backup --verify ARCHIVE`, the command itself in a process of its own (it starts a scratch PostgreSQL). */
async function timedVerify(archivePath: string, dataDir: string): Promise<number> {
  const started = performance.now();
  await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join('src', 'cli.ts'), 'backup', '--verify', archivePath], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, BACKUP_KEY: backupKey, LOG_LEVEL: 'error' },
    maxBuffer: 10 * 1024 * 1024,
  });
  return performance.now() - started;
}

/**
 * Backups of the 100,000-document fixture (documents.ts) into a folder, encrypted with
 * BACKUP_KEY: a first backup, a second with nothing changed (goal under 10 s: it copies no file),
 * and a restore of that archive into a fresh install up to the restored server's first answer
 * (goal under 5 minutes), then `backup --verify` when a restore is quick enough to run twice.
 * The fixture's documents all name one stored file, so these figures are the rows' and the demo
 * data's few files: a firm's 100,000 files of their own add a per-file cost to the first backup
 * and to every restore that this benchmark does not measure.
 */
export async function benchBackups(server: BenchServer): Promise<void> {
  // Another benchmark may have filled the database already.
  const [investors] = await server.services.orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from users where email like 'bench%'`);
  if (Number(investors?.n ?? 0) === 0) await populate(server);

  const scryptStarted = performance.now();
  BackupKey.fromSecret(backupKey);
  const scryptMs = performance.now() - scryptStarted;

  const place = mkdtempSync(path.join(os.tmpdir(), 'everest-bench-backups-'));
  const restoredDir = mkdtempSync(path.join(os.tmpdir(), 'everest-bench-restored-'));
  const verifyDir = mkdtempSync(path.join(os.tmpdir(), 'everest-bench-verify-'));
  let database: Awaited<ReturnType<typeof emptyDatabase>> | undefined;
  try {
    const first = await timedBackup(server, place);
    const loadAfterFirst = loadAverage();
    const second = await timedBackup(server, place);
    const loadAfterSecond = loadAverage();
    const { result } = first;
    console.log(
      `Backups of the 100,000-document fixture (${result.rows.toLocaleString('en-US')} rows; its documents share one stored file, ${result.filesTotal} in all) into a folder, BACKUP_KEY encryption, ${os.availableParallelism()} CPUs`,
    );
    console.log(`  key derivation (scrypt N=2^15), once per backup and per restore: ${seconds(scryptMs)}`);
    console.log(
      `  first backup: ${seconds(first.phases.totalMs)} (${first.phases}); archive ${megabytes(result.sizeBytes)}; ${result.filesCopied} files copied, ${megabytes(result.bytesCopied)} (load average ${loadAfterFirst})`,
    );
    console.log(
      `  second backup, nothing changed: ${seconds(second.phases.totalMs)} (${second.phases}); archive ${megabytes(second.result.sizeBytes)}; ${second.result.filesCopied} files copied (load average ${loadAfterSecond})`,
    );
    console.log(`    goal < ${secondBackupGoalMs / 1000} s: ${met(second.phases.totalMs < secondBackupGoalMs)}`);

    database = await emptyDatabase(server.databaseUrl);
    const restore = await timedRestore(place, second.result.archive, database.url, restoredDir);
    const marks = new Map(restore.phases.marks);
    const toHealthMs = restore.phases.totalMs - (marks.get('sign-in and first document list') ?? 0);
    console.log(
      `  restore into a fresh install (an empty database, a new DATA_DIR), to the restored server's first answer: ${seconds(toHealthMs)}, to an investor's first document list (${restore.documents} documents): ${seconds(restore.phases.totalMs)} (load average ${loadAverage()})`,
    );
    console.log(`    ${restore.phases}`);
    console.log(`    goal < ${restoreGoalMs / 60_000} minutes: to the first answer ${met(toHealthMs < restoreGoalMs)}, to the first list ${met(restore.phases.totalMs < restoreGoalMs)}`);

    if (restore.phases.totalMs < verifyWithinMs) {
      const verifyMs = await timedVerify(path.join(place, second.result.archive), verifyDir);
      console.log(`  backup --verify (its own process and scratch PostgreSQL, a whole restore compared): ${seconds(verifyMs)} (load average ${loadAverage()})`);
    } else {
      console.log(`  backup --verify: not run, a restore took over ${seconds(verifyWithinMs)} and it is another one`);
    }
  } finally {
    await database?.drop();
    for (const dir of [place, restoredDir, verifyDir]) rmSync(dir, { recursive: true, force: true });
  }
}
