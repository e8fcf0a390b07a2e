import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { s3BucketAndPrefix, StartupError, type BackupPlace as BackupPlaceConfig, type Config } from '../../config';
import { openDatabase, ensureDatabase } from '../../db/database';
import { startEmbeddedPostgres } from '../../db/embedded';
import { openOrm } from '../../db/orm';
import type { Logger } from '../../logger';
import { createFileStore } from '../files/create-file-store';
import { LocalFileStore } from '../files/local-file-store';
import { BackupKey } from './archive-crypto';
import type { BackupPlace } from './backup-place';
import { openBackupPlace } from './open-backup-place';
import { BackupFailed, runBackup } from './backup-runs';
import { assertEmptyInstall, checkArchive, RestoreRefused, restoreArchive, type RestoreSummary, type RestoreTarget } from './restore-backup';

// The operator's commands: `backup [--to PATH|s3://…] [--unencrypted]`, `backup --verify ARCHIVE`
// and `restore ARCHIVE`. Progress goes to standard error; what a script wants (the archive's
// path) is the last line on standard output.

const say = (line: string) => console.error(line);

function placeOf(address: string, config: Config): BackupPlaceConfig {
  return address.startsWith('s3://') ? { kind: 's3', ...s3BucketAndPrefix(address), ...config.s3 } : { kind: 'folder', path: path.resolve(address) };
}

/** `…/everest-backup-….tar.enc` as the place it is in and its name there. */
async function locateArchive(address: string, config: Config): Promise<{ place: BackupPlace; name: string }> {
  const cut = address.replace(/\/+$/, '').lastIndexOf('/');
  const [where, name] = cut < 0 ? ['.', address] : [address.slice(0, cut), address.slice(cut + 1)];
  if (!where || where === 's3:/' || where === 's3:') throw new StartupError(`Name the archive itself, e.g. ${address}/everest-backup-2026-12-02T020000.000Z.tar.enc.`);
  return { place: await openBackupPlace(placeOf(where, config)), name };
}

function keyOf(config: Config): BackupKey | null {
  return config.backups.key ? BackupKey.fromSecret(config.backups.key) : null;
}

export async function backupCommand(config: Config, logger: Logger, flags: string[]): Promise<void> {
  const verify = flags.indexOf('--verify');
  if (verify >= 0) {
    const archive = flags[verify + 1];
    if (!archive) throw new StartupError('Say which archive to verify: backup --verify PATH/everest-backup-….tar.enc');
    await verifyCommand(config, archive);
    return;
  }
  const toAt = flags.indexOf('--to');
  const to = toAt >= 0 ? flags[toAt + 1] : undefined;
  if (toAt >= 0 && !to) throw new StartupError('Say where to write the backup: --to PATH or --to s3://bucket/prefix.');
  // Beside a running server: its embedded PostgreSQL is used, not started again.
  const db = await openDatabase(config, logger, { besideServer: true });
  const files = await createFileStore(config);
  try {
    const result = await runBackup(
      { orm: db.orm, databaseUrl: db.url, files, dataDir: config.dataDir, backups: config.backups, secretsFromEnvironment: config.secretsFromEnvironment, logger },
      { trigger: 'command', ...(to ? { to: placeOf(to, config) } : {}), unencrypted: flags.includes('--unencrypted'), onProgress: say },
    ).catch((error: unknown) => {
      throw error instanceof BackupFailed ? new StartupError(error.message) : error;
    });
    if (result === 'busy') throw new StartupError('Another backup is being taken now (by the schedule or another command): try again once it has finished.');
    say(`Backed up ${result.rows} rows and ${result.filesTotal} files (${result.filesCopied} new) into ${result.archive}, ${result.sizeBytes} bytes.`);
    console.log(result.location.startsWith('s3://') ? `${result.location}/${result.archive}` : path.join(result.location, result.archive));
  } finally {
    files.close();
    await db.close();
  }
}

function report(summary: RestoreSummary): void {
  say(
    `Restored the backup of ${summary.takenAt} (migration ${summary.migration}): ${summary.rows} rows in ${summary.tables} tables and ${summary.files} files (${summary.bytes} bytes), every one compared with the backup: no difference.`,
  );
  if (summary.migrationsRun > 0) say(`Ran ${summary.migrationsRun} newer migrations after it.`);
  if (summary.secretsFromEnvironment.length > 0) {
    say(`The server took ${summary.secretsFromEnvironment.join(', ')} from its environment when it was backed up: set them to the same values, or second steps and sessions will not work.`);
  }
}

export async function restoreCommand(config: Config, logger: Logger, archive: string | undefined): Promise<void> {
  if (!archive) throw new StartupError('Say which archive to restore: restore PATH/everest-backup-….tar.enc');
  const { place, name } = await locateArchive(archive, config);
  const db = await openDatabase(config, logger);
  const files = await createFileStore(config);
  try {
    const target: RestoreTarget = { orm: db.orm, databaseUrl: db.url, files, dataDir: config.dataDir };
    await refusalsAsSentences(async () => {
      await assertEmptyInstall(target);
      const checked = await checkArchive(place, name, keyOf(config), files.tempDir, say);
      try {
        report(await restoreArchive(target, checked, say));
      } finally {
        await checked.discard();
      }
    });
  } finally {
    place.close();
    files.close();
    await db.close();
  }
}

/** Restores into a scratch PostgreSQL and folder, compares everything, and throws on any difference. */
export async function verifyCommand(config: Config, archive: string): Promise<RestoreSummary> {
  const { place, name } = await locateArchive(archive, config);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'everest-verify-'));
  // Run as root, PostgreSQL runs as the postgres user, who must pass through to its folder.
  await chmod(scratch, 0o711);
  const cluster = await startEmbeddedPostgres(path.join(scratch, 'postgres'), () => {}, undefined, true);
  try {
    await ensureDatabase(cluster.url(), 'everest');
    const orm = await openOrm(cluster.url('everest'));
    const files = new LocalFileStore(path.join(scratch, 'files'));
    try {
      return await refusalsAsSentences(async () => {
        const checked = await checkArchive(place, name, keyOf(config), files.tempDir, say);
        try {
          const summary = await restoreArchive({ orm, databaseUrl: cluster.url('everest'), files, dataDir: scratch }, checked, say);
          report(summary);
          say(`${archive} is sound: it restores whole.`);
          return summary;
        } finally {
          await checked.discard();
        }
      });
    } finally {
      await orm.close(true);
    }
  } finally {
    place.close();
    await cluster.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

async function refusalsAsSentences<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RestoreRefused) throw new StartupError(error.message);
    throw error;
  }
}
