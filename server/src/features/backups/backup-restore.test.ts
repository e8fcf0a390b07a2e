import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { create } from 'tar';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoPassword } from '@everest/fixtures';
import { adminToken, pdfOfSize, uploadPropertyDocument } from '../../../test/drill-kit';
import { createTestDatabase, startTestServer, type TestDatabase, type TestServer } from '../../../test/harness';
import { createApp } from '../../app';
import { loadConfig, StartupError, type Config } from '../../config';
import { openOrm } from '../../db/orm';
import { createLogger } from '../../logger';
import { createServices } from '../../services';
import { createFileStore } from '../files/create-file-store';
import type { FileStore } from '../files/file-store';
import { BackupKey, encryptStream } from './archive-crypto';
import type { BackupPlace } from './backup-place';
import { openBackupPlace } from './open-backup-place';
import { runBackup, type BackupContext } from './backup-runs';
import { restoreMarkerTable } from './database-snapshot';
import { assertEmptyInstall, assertNoUnfinishedRestore, checkArchive, RestoreRefused, restoreArchive } from './restore-backup';
import type { BackupResult } from './take-backup';

// The smaller round trip of the restore drill: a seeded install backed up, restored into a fresh
// one, and compared table by table and file by file. In the server-s3 project the files and the
// backups are in a bucket (s3rver), as an install with DATABASE_URL and S3 keeps them.

const backupKey = 'a-backup-key-for-the-tests-only-0123456789';
const bucket = inject('s3Bucket');
const s3 = bucket ? { S3_ENDPOINT: inject('s3Endpoint') ?? '', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' } : null;

function backupEnv(name: string): Record<string, string> {
  return { BACKUP_KEY: backupKey, ...(s3 ? { ...s3, BACKUP_TO: `s3://${bucket}/${name}-backups` } : {}) };
}

function contextOf(server: TestServer): BackupContext {
  const { services } = server;
  return {
    orm: services.orm,
    databaseUrl: server.databaseUrl,
    files: services.files,
    dataDir: services.config.dataDir,
    backups: services.config.backups,
    secretsFromEnvironment: services.config.secretsFromEnvironment,
    logger: services.logger,
  };
}

/** Every table's rows as one digest, in an order that does not depend on how they were written. */
async function tableDigests(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (
      await client.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' and tablename not in ('mikro_orm_migrations', 'backup_runs') order by 1`)
    ).rows;
    const digests: Record<string, string> = {};
    for (const { name } of tables) {
      const [row] = (await client.query<{ n: number; digest: string | null }>(`select count(*)::int as n, md5(string_agg(t::text, '|' order by t::text)) as digest from "${name}" t`)).rows;
      digests[name] = `${row?.n} ${row?.digest}`;
    }
    return digests;
  } finally {
    await client.end();
  }
}

async function fileDigests(files: FileStore): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const { sha256 } of await files.list()) {
    const opened = await files.open(sha256);
    if (!opened) continue;
    const hash = createHash('sha256');
    const sink = new Writable({ write: (chunk: Buffer, _e, done) => (hash.update(chunk), done()) });
    await opened.writeTo(sink, { start: 0, end: opened.size - 1 });
    await opened.close();
    found[sha256] = hash.digest('hex');
  }
  return found;
}

let installs = 0;

/** A fresh install to restore into: an empty (migrated) database, an empty data folder, an empty store. */
async function freshInstall(name: string): Promise<{ config: Config; database: TestDatabase; files: FileStore; dataDir: string; close: () => Promise<void> }> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-restored-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'error',
    REQUIRE_SECOND_STEP: 'none',
    ...backupEnv(name),
    ...(s3 ? { ...s3, FILE_STORE: `s3://${bucket}/${name}-restored-files-${++installs}` } : {}),
  });
  const files = await createFileStore(config);
  return {
    config,
    database,
    files,
    dataDir,
    close: async () => {
      files.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function restoreInto(install: Awaited<ReturnType<typeof freshInstall>>, place: BackupPlace, archive: string, key: BackupKey | null = BackupKey.fromSecret(backupKey)) {
  const orm = await openOrm(install.database.url);
  try {
    const target = { orm, databaseUrl: install.database.url, files: install.files, dataDir: install.dataDir };
    await assertEmptyInstall(target);
    const checked = await checkArchive(place, archive, key, install.files.tempDir);
    try {
      return await restoreArchive(target, checked);
    } finally {
      await checked.discard();
    }
  } finally {
    await orm.close(true);
  }
}

// A seeded install copied whole, several times over: in the bucket, under a loaded machine, a
// minute or more per step.
describe('a backup restored into a fresh install', { timeout: 180_000 }, () => {
  const name = `roundtrip-${Date.now()}`;
  let source: TestServer;
  let backup: BackupResult;
  let place: BackupPlace;

  beforeAll(async () => {
    source = await startTestServer({ seed: true, env: backupEnv(name) });
    // Larger than the local store's read buffers (4 × 256 KiB): its backup copy was once others' bytes.
    const uploaded = await uploadPropertyDocument(source.url, await adminToken(source.url), 'Audited Financial Statements 2025', pdfOfSize('audited', 3_000_000));
    expect(uploaded.status).toBe(200);
    const result = await runBackup(contextOf(source), { trigger: 'command' });
    if (result === 'busy') throw new Error('busy');
    backup = result;
    place = await openBackupPlace(source.services.config.backups.to);
  }, 180_000);
  afterAll(async () => {
    place.close();
    await source.close();
  });

  it('holds every row and file, and signs in with the password it had', async () => {
    const install = await freshInstall(name);
    try {
      const summary = await restoreInto(install, place, backup.archive);
      expect(summary.files).toBe(backup.filesTotal);
      expect(summary.rows).toBe(backup.rows);
      expect(await tableDigests(install.database.url)).toEqual(await tableDigests(source.databaseUrl));
      const restoredFiles = await fileDigests(install.files);
      expect(Object.keys(restoredFiles).length).toBeGreaterThan(10);
      expect(restoredFiles).toEqual(await fileDigests(source.services.files));
      for (const [sha256, digest] of Object.entries(restoredFiles)) expect(digest).toBe(sha256);
      for (const secret of ['jwt', 'second-step', 'altcha']) {
        expect(readFileSync(path.join(install.dataDir, `${secret}.secret`), 'utf8')).toBe(readFileSync(path.join(source.services.config.dataDir, `${secret}.secret`), 'utf8'));
      }

      // The restored install serves: the demo administrator signs in with the demo password.
      const orm = await openOrm(install.database.url);
      const config = loadConfig({ DATA_DIR: install.dataDir, DATABASE_URL: install.database.url, LOG_LEVEL: 'error', REQUIRE_SECOND_STEP: 'none' });
      const { services, close } = await createServices(config, { orm, url: install.database.url }, createLogger('error'));
      const server = createApp(services).listen(0, '127.0.0.1');
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const signIn = await fetch(`${url}/api/investor/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: demoPassword }) });
        expect(signIn.status).toBe(200);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await close();
        await orm.close(true);
      }
    } finally {
      await install.close();
    }
  });

  it('copies only the files the backup place lacks: a second backup with nothing changed copies none', async () => {
    const again = await runBackup(contextOf(source), { trigger: 'command' });
    if (again === 'busy') throw new Error('busy');
    expect(again.filesTotal).toBe(backup.filesTotal);
    expect(again.filesCopied).toBe(0);
    expect(again.archive).not.toBe(backup.archive);
  });

  it('refuses an install that is not empty, naming what is there', async () => {
    const orm = await openOrm(source.databaseUrl);
    try {
      await expect(assertEmptyInstall({ orm, databaseUrl: source.databaseUrl, files: source.services.files, dataDir: source.services.config.dataDir })).rejects.toThrow(
        /^The install is not empty \(table users has rows\): a restore goes only into a fresh install/,
      );
    } finally {
      await orm.close(true);
    }
  });

  it('refuses an archive with one byte changed before it writes anything', async () => {
    const original = await place.read(backup.archive);
    const bytes: Buffer[] = [];
    for await (const chunk of original) bytes.push(chunk as Buffer);
    const damaged = Buffer.concat(bytes);
    const middle = Math.floor(damaged.length / 2);
    damaged[middle] = (damaged[middle] ?? 0) ^ 0x01;
    const damagedName = backup.archive.replace(/\.\d{3}Z/, '.999Z');
    await place.write(damagedName, Readable.from([damaged]));
    const install = await freshInstall(name);
    try {
      await expect(restoreInto(install, place, damagedName)).rejects.toThrow(/does not authenticate/);
      const client = new pg.Client({ connectionString: install.database.url });
      await client.connect();
      const rows = await client.query<{ n: number }>('select count(*)::int as n from users');
      await client.end();
      expect(rows.rows[0]?.n).toBe(0);
      expect(await install.files.list()).toEqual([]);
    } finally {
      await place.remove(damagedName);
      await install.close();
    }
  });

  it('refuses the wrong key with a sentence', async () => {
    const install = await freshInstall(name);
    try {
      await expect(restoreInto(install, place, backup.archive, BackupKey.fromSecret('another-key-entirely-another-key-entirely'))).rejects.toThrow(
        /BACKUP_KEY is not the key it was made with/,
      );
      await expect(restoreInto(install, place, backup.archive, null)).rejects.toThrow(/is encrypted: set BACKUP_KEY/);
    } finally {
      await install.close();
    }
  });

  it('leaves an install a restore did not finish marked, so that the server refuses it, and a second restore finishes it', async () => {
    const install = await freshInstall(name);
    try {
      const orm = await openOrm(install.database.url);
      const target = { orm, databaseUrl: install.database.url, files: install.files, dataDir: install.dataDir };
      const checked = await checkArchive(place, backup.archive, BackupKey.fromSecret(backupKey), install.files.tempDir);
      // Cut off half-way: the rows are in, the files are not (their staged copies are gone).
      rmSync(checked.staged, { recursive: true, force: true });
      await expect(restoreArchive(target, checked)).rejects.toThrow();
      await checked.discard();
      await expect(assertNoUnfinishedRestore(orm)).rejects.toThrow(StartupError);
      await expect(assertNoUnfinishedRestore(orm)).rejects.toThrow(/did not finish.*run `restore ARCHIVE` again/);
      await orm.close(true);

      const summary = await restoreInto(install, place, backup.archive);
      expect(summary.files).toBe(backup.filesTotal);
      const again = await openOrm(install.database.url);
      await expect(assertNoUnfinishedRestore(again)).resolves.toBeUndefined();
      const [marker] = await again.em.getConnection().execute<{ found: string | null }[]>(`select to_regclass('${restoreMarkerTable}') as found`);
      expect(marker?.found).toBeNull();
      await again.close(true);
    } finally {
      await install.close();
    }
  });

  it('refuses an archive taken at a migration this version does not know', async () => {
    const checked = await checkArchive(place, backup.archive, BackupKey.fromSecret(backupKey), mkdtempSync(path.join(os.tmpdir(), 'everest-staging-')));
    await checked.discard();
    // The same archive, its manifest naming a migration from the future.
    const work = mkdtempSync(path.join(os.tmpdir(), 'everest-future-'));
    try {
      const manifest = { ...checked.manifest, migration: 'Migration29991231000000_from_the_future' };
      await writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest));
      const futureName = backup.archive.replace(/\.\d{3}Z/, '.998Z');
      await place.write(futureName, Readable.from(create({ cwd: work, portable: true }, ['manifest.json'])).pipe(encryptStream(BackupKey.fromSecret(backupKey))));
      const install = await freshInstall(name);
      try {
        await expect(restoreInto(install, place, futureName)).rejects.toThrow(RestoreRefused);
        await expect(restoreInto(install, place, futureName)).rejects.toThrow(/Migration29991231000000_from_the_future, which this version .* does not know/);
      } finally {
        await place.remove(futureName);
        await install.close();
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

it('refuses to back up without BACKUP_KEY unless told --unencrypted, and then writes an archive a restore reads without a key', { timeout: 180_000 }, async () => {
  const name = `unencrypted-${Date.now()}`;
  const source = await startTestServer({ seed: true, env: s3 ? { ...s3, BACKUP_TO: `s3://${bucket}/${name}-backups` } : {} });
  try {
    await expect(runBackup(contextOf(source), { trigger: 'command' })).rejects.toThrow(/BACKUP_KEY is not set.*--unencrypted/);
    const result = await runBackup(contextOf(source), { trigger: 'command', unencrypted: true });
    if (result === 'busy') throw new Error('busy');
    expect(result.archive).toMatch(/\.tar$/);
    const place = await openBackupPlace(source.services.config.backups.to);
    const install = await freshInstall(name);
    try {
      const summary = await restoreInto(install, place, result.archive, null);
      expect(summary.files).toBe(result.filesTotal);
      expect(await tableDigests(install.database.url)).toEqual(await tableDigests(source.databaseUrl));
    } finally {
      place.close();
      await install.close();
    }
  } finally {
    await source.close();
  }
});

it('a backup place in a folder names no document: its files are under keyed names', { timeout: 180_000 }, async () => {
  if (s3) return expect(bucket).toBeTruthy();
  const source = await startTestServer({ seed: true, env: { BACKUP_KEY: backupKey } });
  try {
    const result = await runBackup(contextOf(source), { trigger: 'command' });
    if (result === 'busy') throw new Error('busy');
    const folder = (source.services.config.backups.to as { path: string }).path;
    const names = readdirSync(path.join(folder, 'files'));
    const hashes = new Set((await source.services.files.list()).map((file) => file.sha256));
    expect(names.length).toBe(result.filesTotal);
    expect(names.filter((fileName) => hashes.has(fileName))).toEqual([]);
    expect(existsSync(path.join(folder, result.archive))).toBe(true);
    expect(readdirSync(path.join(folder, '.partial'))).toEqual([]);
  } finally {
    await source.close();
  }
});

it('refuses a manifest whose names would climb out of the backup place or into SQL', async () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'everest-hostile-'));
  const placeDir = mkdtempSync(path.join(os.tmpdir(), 'everest-hostile-place-'));
  const { FolderPlace } = await import('./backup-place');
  const place = new FolderPlace(placeDir);
  const base = {
    format: 1, product: 'everest', version: '0.1.0', migration: 'Migration20261121233022', takenAt: new Date().toISOString(), encrypted: false,
    tables: [], sequences: [], files: [], secrets: [], secretsFromEnvironment: [],
  };
  try {
    for (const [i, [label, manifest]] of ([
      ['a file path', { ...base, files: [{ sha256: 'a'.repeat(64), size: 1, contentType: 'application/pdf', name: '../../etc/passwd' }] }],
      ['a table name', { ...base, tables: [{ name: 'users"; drop table users; --', columns: [], rows: 0, sha256: 'a'.repeat(64), bytes: 0 }] }],
      ['a secret name', { ...base, secrets: ['../../jwt'] }],
    ] as const).entries()) {
      await writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest));
      const archive = `everest-backup-2026-12-02T02000${i}.000Z.tar`;
      await place.write(archive, Readable.from(create({ cwd: work, portable: true }, ['manifest.json'])));
      await expect(checkArchive(place, archive, null, work), label).rejects.toThrow(/manifest is not one this version reads/);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(placeDir, { recursive: true, force: true });
  }
});

it('restores an archive of an older migration, then runs the newer ones', { timeout: 180_000 }, async () => {
  const name = `older-${Date.now()}`;
  // An install one migration behind this version, with an investor in it.
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  const database = `everest_older_${Date.now()}`;
  await admin.query(`create database "${database}"`);
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${database}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-older-'));
  const orm = await openOrm(url.toString());
  try {
    const { migrationsList } = await import('../../db/migrations');
    const previous = migrationsList.at(-2)?.name ?? '';
    await orm.getMigrator().up({ to: previous });
    await orm.em.getConnection().execute(
      `insert into users (first_name, last_name, entity, email, password_hash, role, is_active, token_version, created_at, updated_at)
       values ('Ada', 'Older', 'Older LLC', 'ada.older@example.com', 'x', 'user', true, 0, now(), now())`,
    );
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url.toString(), LOG_LEVEL: 'error', ...backupEnv(name) });
    const files = await createFileStore(config);
    const place = await openBackupPlace(config.backups.to);
    const { takeBackup } = await import('./take-backup');
    const result = await takeBackup({ databaseUrl: url.toString(), files, dataDir, secretsFromEnvironment: [] }, place, BackupKey.fromSecret(backupKey));
    expect(result.migration).toBe(previous);
    const install = await freshInstall(name);
    try {
      const summary = await restoreInto(install, place, result.archive);
      expect(summary.migrationsRun).toBe(1);
      const client = new pg.Client({ connectionString: install.database.url });
      await client.connect();
      const users = await client.query<{ email: string }>('select email from users');
      const last = await client.query<{ name: string }>('select name from mikro_orm_migrations order by id desc limit 1');
      await client.end();
      expect(users.rows.map((row) => row.email)).toEqual(['ada.older@example.com']);
      expect(last.rows[0]?.name).toBe(migrationsList.at(-1)?.name);
    } finally {
      place.close();
      files.close();
      await install.close();
    }
  } finally {
    await orm.close(true);
    await admin.query(`drop database if exists "${database}" with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
