import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { extract as extractTar } from 'tar';
import { StartupError } from '../../config';
import { migrationsList } from '../../db/migrations';
import type { FileStore } from '../files/file-store';
import { openingStream, type BackupKey } from './archive-crypto';
import { backupManifest, type BackupManifest } from './backup-manifest';
import type { BackupPlace } from './backup-place';
import { fileConcurrency, forEachConcurrently } from './concurrently';
import { loadDatabase, meter, restoreMarked, restoreMarkerTable } from './database-snapshot';

/** A sentence for the operator: the archive or the install is not fit, and nothing was written. */
export class RestoreRefused extends Error {}

export interface RestoreTarget {
  orm: MikroORM;
  databaseUrl: string;
  files: FileStore;
  /** Where the `*.secret` files go. */
  dataDir: string;
}

export interface RestoreSummary {
  takenAt: string;
  migration: string;
  tables: number;
  rows: number;
  files: number;
  bytes: number;
  /** Migrations newer than the archive's, run after it was restored. */
  migrationsRun: number;
  secretsFromEnvironment: string[];
}

/** The archive read into a work folder: checked whole, nothing written anywhere else yet. */
export interface CheckedArchive {
  /** Its name in its backup place. */
  archive: string;
  manifest: BackupManifest;
  work: string;
  /** Each document file, decrypted and checked, by its sha256. */
  staged: string;
  bytes: number;
  discard: () => Promise<void>;
}

/**
 * Reads the archive and every file it names, checks each against the manifest (authentication
 * when encrypted, then the sha256 and size of every table and file), and keeps the result in
 * `stagingDir` (on the file store's disk, so that restoring them is a rename).
 */
export async function checkArchive(
  place: BackupPlace,
  archive: string,
  key: BackupKey | null,
  stagingDir: string,
  onProgress: (line: string) => void = () => {},
): Promise<CheckedArchive> {
  const encrypted = archive.endsWith('.enc');
  if (encrypted && !key) throw new RestoreRefused(`${archive} is encrypted: set BACKUP_KEY to the key it was made with.`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'everest-restore-'));
  const staged = path.join(stagingDir, `restore-${randomUUID()}`);
  // Retries: a refused archive's extraction may still be writing its last files a moment after.
  const discard = async () => {
    await rm(work, { recursive: true, force: true, maxRetries: 5 });
    await rm(staged, { recursive: true, force: true, maxRetries: 5 });
  };
  try {
    const source = await place.read(archive).catch(() => {
      throw new RestoreRefused(`There is no archive ${archive} in ${place.location}.`);
    });
    await pipeline(source, openingStream(encrypted ? key : null, archive), extractTar({ cwd: work, strict: true })).catch((error: unknown) => {
      throw new RestoreRefused(error instanceof Error && error.name === 'BackupAuthenticationError' ? error.message : `${archive} cannot be read: ${describe(error)}.`);
    });
    const manifest = await readManifest(work, archive);
    const known = migrationsList.map((migration) => migration.name);
    if (!known.includes(manifest.migration)) {
      throw new RestoreRefused(
        `${archive} was taken at migration ${manifest.migration}, which this version (${known.at(-1)}) does not know: restore it with the version that took it (${manifest.version}) or a newer one.`,
      );
    }
    for (const table of manifest.tables) {
      const found = await fileDigest(path.join(work, 'tables', `${table.name}.copy`)).catch(() => null);
      if (found?.sha256 !== table.sha256 || found.size !== table.bytes) throw new RestoreRefused(`${archive} is damaged: the rows of table ${table.name} are not the ones its manifest describes.`);
    }
    await mkdir(staged, { recursive: true });
    let bytes = 0;
    let checked = 0;
    await forEachConcurrently(manifest.files, fileConcurrency, async (file) => {
      const body = await place.read(`files/${file.name}`).catch(() => {
        throw new RestoreRefused(`The backup place ${place.location} lacks files/${file.name}, a document file ${archive} needs.`);
      });
      const target = path.join(staged, file.sha256);
      const measured = meter();
      await pipeline(body, openingStream(encrypted ? key : null, `files/${file.name}`), measured, createWriteStream(target, { mode: 0o600 })).catch(
        (error: unknown) => {
          throw new RestoreRefused(error instanceof Error && error.name === 'BackupAuthenticationError' ? error.message : `files/${file.name} cannot be read: ${describe(error)}.`);
        },
      );
      const { sha256, bytes: size } = measured.digest();
      if (sha256 !== file.sha256 || size !== file.size) throw new RestoreRefused(`files/${file.name} in ${place.location} is damaged: its bytes are not the document file ${archive} names.`);
      bytes += size;
      checked += 1;
      if (checked % 500 === 0) onProgress(`Checked ${checked} of ${manifest.files.length} files.`);
    });
    onProgress(`Checked the archive: ${manifest.tables.length} tables and ${manifest.files.length} files, all as the manifest says.`);
    return { archive, manifest, work, staged, bytes, discard };
  } catch (error) {
    // What was wrong with the archive is the news, not a temp folder that would not go.
    await discard().catch(() => undefined);
    throw error;
  }
}

async function readManifest(work: string, archive: string): Promise<BackupManifest> {
  const text = await readFile(path.join(work, 'manifest.json'), 'utf8').catch(() => null);
  if (text === null) throw new RestoreRefused(`${archive} has no manifest: it is not an Everest backup.`);
  const parsed = backupManifest.safeParse(JSON.parse(text));
  if (!parsed.success) throw new RestoreRefused(`${archive}'s manifest is not one this version reads (${parsed.error.issues[0]?.message ?? 'bad manifest'}).`);
  return parsed.data;
}

async function fileDigest(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
}

/**
 * Stops start-up on an install a restore began on and did not finish: its database may hold
 * half the rows, or rows whose files are missing.
 */
export async function assertNoUnfinishedRestore(orm: MikroORM): Promise<void> {
  const [row] = await orm.em.getConnection().execute<{ found: string | null }[]>('select to_regclass(?) as found', [`public.${restoreMarkerTable}`]);
  if (row?.found) {
    throw new StartupError(
      'A restore into this install began and did not finish, so its data may be incomplete: run `restore ARCHIVE` again (it starts over), then start the server.',
    );
  }
}

/**
 * Refuses an install that holds anything: a restore replaces, and would silently lose what is
 * there. An install a restore began on and did not finish (its marker) may be restored again.
 */
export async function assertEmptyInstall(target: RestoreTarget): Promise<void> {
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    if (await restoreMarked(client)) return;
    const tables = (
      await client.query<{ name: string }>(
        `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> 'mikro_orm_migrations'`,
      )
    ).rows.map((row) => row.name);
    // The tables an operator knows first, so that the sentence names what they would recognise.
    const known = ['users', 'properties', 'stored_files'];
    const rank = (table: string) => (known.includes(table) ? known.indexOf(table) : known.length);
    tables.sort((a, b) => rank(a) - rank(b));
    for (const table of tables) {
      const answer = await client.query(`select 1 from "${table.replace(/"/g, '""')}" limit 1`);
      if (answer.rowCount) {
        throw new RestoreRefused(
          `The install is not empty (table ${table} has rows): a restore goes only into a fresh install. Point DATA_DIR (or DATABASE_URL and FILE_STORE) at a new, empty place, and do not start the server there before restoring.`,
        );
      }
    }
  } finally {
    await client.end();
  }
  const stored = await target.files.list();
  if (stored.length > 0) {
    throw new RestoreRefused(`The file store ${target.files.location} is not empty (${stored.length} files): a restore goes only into a fresh install.`);
  }
}

/**
 * Restores a checked archive into an empty install: the marker first, the schema up to the
 * archive's migration, the rows, the files, the secrets, the newer migrations, then a read-back
 * of every file, and the marker goes last. Interrupted anywhere, the marker stays, and the
 * server refuses to start until a restore finishes.
 */
export async function restoreArchive(target: RestoreTarget, checked: CheckedArchive, onProgress: (line: string) => void = () => {}): Promise<RestoreSummary> {
  const { manifest } = checked;
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    // Whatever an earlier attempt or a first start built goes: the install is empty (checked).
    await client.query('drop schema public cascade');
    await client.query('create schema public');
    await client.query(`create table ${restoreMarkerTable} (archive text not null, started_at timestamptz not null default now())`);
    await client.query(`insert into ${restoreMarkerTable} (archive) values ($1)`, [manifest.takenAt]);

    const migrator = target.orm.getMigrator();
    await migrator.up({ to: manifest.migration });
    await loadDatabase(client, checked.work, manifest);
    // The snapshot holds the run that took it, still running then: it is this archive, whole.
    if (manifest.tables.some((table) => table.name === 'backup_runs')) {
      await client.query(`update backup_runs set outcome = 'succeeded', finished_at = $1, archive = $2 where outcome = 'running'`, [manifest.takenAt, checked.archive]);
    }
    onProgress(`Restored ${manifest.tables.reduce((sum, table) => sum + table.rows, 0)} rows; every table reads back as it was backed up.`);

    await forEachConcurrently(manifest.files, fileConcurrency, (file) => target.files.adopt(path.join(checked.staged, file.sha256), file));
    for (const name of manifest.secrets) {
      await writeFile(path.join(target.dataDir, `${name}.secret`), await readFile(path.join(checked.work, 'secrets', `${name}.secret`)), { mode: 0o600 });
    }
    const newer = await migrator.up();
    await forEachConcurrently(manifest.files, fileConcurrency, async (file) => {
      const opened = await target.files.open(file.sha256);
      if (!opened) throw new Error(`the file ${file.sha256} is not in ${target.files.location} after its restore`);
      const size = opened.size;
      await opened.close();
      if (size !== file.size) throw new Error(`the file ${file.sha256} reads back ${size} bytes where the backup has ${file.size}`);
    });
    await client.query(`drop table ${restoreMarkerTable}`);
    return {
      takenAt: manifest.takenAt,
      migration: manifest.migration,
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((sum, table) => sum + table.rows, 0),
      files: manifest.files.length,
      bytes: checked.bytes,
      migrationsRun: newer.length,
      secretsFromEnvironment: manifest.secretsFromEnvironment,
    };
  } finally {
    await client.end();
  }
}
