import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import pg from 'pg';
import { create as createTar } from 'tar';
import type { FileStore } from '../files/file-store';
import { encryptStream, type BackupKey } from './archive-crypto';
import { backupFormat, type BackupManifest } from './backup-manifest';
import { archiveName, type BackupPlace } from './backup-place';
import { forEachConcurrently, fileConcurrency } from './concurrently';
import { dumpDatabase } from './database-snapshot';
import serverPackage from '../../../package.json' with { type: 'json' };

export const serverVersion = serverPackage.version;

export interface BackupResult {
  archive: string;
  location: string;
  takenAt: Date;
  /** The archive's bytes. */
  sizeBytes: number;
  /** Document files this backup copied, and their bytes: the ones the place lacked. */
  filesCopied: number;
  bytesCopied: number;
  filesTotal: number;
  rows: number;
  migration: string;
}

export interface BackupSources {
  databaseUrl: string;
  files: FileStore;
  /** Where `*.secret` files are (DATA_DIR). */
  dataDir: string;
  /** Environment variables the running configuration took a secret from, by name. */
  secretsFromEnvironment: string[];
}

/**
 * Takes one backup into `place`: the database in one snapshot, then every file its rows name
 * that the place lacks, then the archive (manifest, tables, secrets), which appears whole or
 * not at all. Encrypted with `key`; null only when the operator said --unencrypted.
 */
export async function takeBackup(sources: BackupSources, place: BackupPlace, key: BackupKey | null, onProgress: (line: string) => void = () => {}): Promise<BackupResult> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'everest-backup-'));
  try {
    const takenAt = new Date();
    const client = new pg.Client({ connectionString: sources.databaseUrl });
    await client.connect();
    let dump;
    try {
      // One instant for every table, while the server goes on writing on its own connections.
      await client.query('begin isolation level repeatable read read only');
      dump = await dumpDatabase(client, work);
      await client.query('commit');
    } finally {
      await client.end();
    }
    const rows = dump.tables.reduce((sum, table) => sum + table.rows, 0);
    onProgress(`Read ${rows} rows of ${dump.tables.length} tables at migration ${dump.migration}.`);

    const fileName = (sha256: string) => (key ? key.fileName(sha256) : sha256);
    const present = await place.listFiles();
    const missing = dump.files.filter((file) => !present.has(fileName(file.sha256)));
    let copied = 0;
    let bytesCopied = 0;
    await forEachConcurrently(missing, fileConcurrency, async (file) => {
      await copyFile(sources.files, place, key, file, fileName(file.sha256));
      copied += 1;
      bytesCopied += file.size;
      if (copied % 500 === 0) onProgress(`Copied ${copied} of ${missing.length} new files.`);
    });
    onProgress(`Copied ${copied} new files (${dump.files.length - copied} were in the backup place already).`);

    const secrets = await copySecrets(sources.dataDir, path.join(work, 'secrets'));
    const manifest: BackupManifest = {
      format: backupFormat,
      product: 'everest',
      version: serverVersion,
      migration: dump.migration,
      takenAt: takenAt.toISOString(),
      encrypted: key !== null,
      tables: dump.tables,
      sequences: dump.sequences,
      files: dump.files.map((file) => ({ ...file, name: fileName(file.sha256) })),
      secrets,
      secretsFromEnvironment: sources.secretsFromEnvironment,
    };
    await writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest));
    // The manifest first, so that reading it (to prune) needs only the archive's start.
    const tar = Readable.from(createTar({ cwd: work, portable: true }, ['manifest.json', 'tables', 'secrets']));
    const name = archiveName(takenAt, key !== null);
    const sizeBytes = await place.write(name, key ? tar.pipe(encryptStream(key)) : tar);
    return { archive: name, location: place.location, takenAt, sizeBytes, filesCopied: copied, bytesCopied, filesTotal: dump.files.length, rows, migration: dump.migration };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Copies one stored file into the place's `files/`, checking on the way that its bytes are its name. */
async function copyFile(files: FileStore, place: BackupPlace, key: BackupKey | null, file: { sha256: string; size: number }, name: string): Promise<void> {
  const opened = await files.open(file.sha256);
  if (!opened) throw new Error(`The stored file ${file.sha256} that a document names is missing from ${files.location}; nothing was backed up.`);
  try {
    const bytes = new PassThrough();
    opened.writeTo(bytes, { start: 0, end: opened.size - 1 }).then(
      () => bytes.end(),
      (error: unknown) => bytes.destroy(error as Error),
    );
    const hash = createHash('sha256');
    const check = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        // A copy: the local store reuses its read buffers once a write is taken, and the
        // encryption holds a chunk until the next arrives (the drill found 3 MB files corrupt).
        callback(null, Buffer.from(chunk));
      },
      flush(callback) {
        const found = hash.digest('hex');
        callback(found === file.sha256 ? null : new Error(`The stored file ${file.sha256} has other bytes (${found}): the file store is damaged.`));
      },
    });
    bytes.once('error', (error) => check.destroy(error));
    const checked = bytes.pipe(check);
    const body = key ? checked.pipe(encryptStream(key)) : checked;
    if (key) checked.once('error', (error) => body.destroy(error));
    await place.write(`files/${name}`, body);
  } finally {
    await opened.close();
  }
}

/** The server's generated secrets (`DATA_DIR/*.secret`), which a restore must bring back for second steps and sessions to work. */
async function copySecrets(dataDir: string, into: string): Promise<string[]> {
  await mkdir(into, { recursive: true });
  const names = (await readdir(dataDir).catch(() => [] as string[])).filter((name) => /^[a-z0-9-]+\.secret$/.test(name)).sort();
  for (const name of names) await writeFile(path.join(into, name), await readFile(path.join(dataDir, name)), { mode: 0o600 });
  return names.map((name) => name.slice(0, -'.secret'.length));
}
