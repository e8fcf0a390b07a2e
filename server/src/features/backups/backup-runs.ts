import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { BackupConfig, BackupPlace as BackupPlaceConfig } from '../../config';
import type { Logger } from '../../logger';
import type { FileStore } from '../files/file-store';
import { enqueueMail } from '../mail/outbox';
import { renderMail } from '../mail/templates';
import { BackupKey } from './archive-crypto';
import { onSameDisk } from './backup-place';
import { openBackupPlace } from './open-backup-place';
import { BackupAlert, BackupRun, type IBackupRun } from './backup-run.entity';
import { pruneBackups } from './prune-backups';
import { takeBackup, type BackupResult } from './take-backup';

/**
 * One backup at a time across every instance and the `backup` command: whoever holds this
 * session lock takes it. (A constant, 'everest-backup' folded into a bigint.)
 */
export const backupLockKey = 7_204_851_127_650_417_002n;

export interface BackupContext {
  orm: MikroORM;
  databaseUrl: string;
  files: FileStore;
  dataDir: string;
  backups: BackupConfig;
  secretsFromEnvironment: string[];
  logger: Logger;
}

export interface BackupRequest {
  trigger: IBackupRun['trigger'];
  /** Another place than BACKUP_TO (the command's --to). */
  to?: BackupPlaceConfig;
  /** The command's --unencrypted: no BACKUP_KEY needed, none used. */
  unencrypted?: boolean;
  onProgress?: (line: string) => void;
}

/** A backup that could not be taken, in a sentence for the operator and the System tab. */
export class BackupFailed extends Error {}

/**
 * Takes a backup under the lock and records it in `backup_runs`: 'busy' when another instance
 * (or a command) is taking one. A scheduled one then prunes the place to BACKUP_KEEP and
 * clears the alerts sent about earlier failures.
 */
export async function runBackup(context: BackupContext, request: BackupRequest): Promise<BackupResult | 'busy'> {
  const { backups } = context;
  if (!request.unencrypted && !backups.key) {
    throw new BackupFailed(
      'BACKUP_KEY is not set: a backup holds every K-1 and is encrypted with it. Set BACKUP_KEY (at least 32 characters, kept somewhere other than the backups), or say --unencrypted to write this one unprotected.',
    );
  }
  const lock = new pg.Client({ connectionString: context.databaseUrl });
  await lock.connect();
  try {
    const [row] = (await lock.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [backupLockKey.toString()])).rows;
    if (!row?.locked) return 'busy';
    const em = context.orm.em.fork();
    // A run still 'running' belonged to a process that died: the lock is ours now.
    await em.nativeUpdate(BackupRun, { outcome: 'running' }, { outcome: 'failed', finishedAt: new Date(), message: 'It stopped before it finished: the process taking it ended.' });
    const placeConfig = request.to ?? backups.to;
    const place = await openBackupPlace(placeConfig);
    const run = em.create(BackupRun, {
      trigger: request.trigger,
      outcome: 'running',
      startedAt: new Date(),
      location: place.location,
      sameDisk: await onSameDisk(placeConfig, context.dataDir),
    });
    await em.flush();
    try {
      const key = request.unencrypted ? null : BackupKey.fromSecret(backups.key as string);
      const result = await takeBackup(
        { databaseUrl: context.databaseUrl, files: context.files, dataDir: context.dataDir, secretsFromEnvironment: context.secretsFromEnvironment },
        place,
        key,
        request.onProgress,
      );
      em.assign(run, {
        outcome: 'succeeded',
        finishedAt: new Date(),
        archive: result.archive,
        sizeBytes: result.sizeBytes,
        filesCopied: result.filesCopied,
        filesTotal: result.filesTotal,
      });
      await em.flush();
      await em.nativeDelete(BackupAlert, {});
      if (request.trigger === 'schedule') {
        const pruned = await pruneBackups(place, key, backups.keep);
        if (pruned.archives > 0) context.logger.info(`Removed ${pruned.archives} old backups and ${pruned.files} files no kept backup names (BACKUP_KEEP).`);
      }
      return result;
    } catch (error) {
      const message = failureSentence(error, place.location);
      em.assign(run, { outcome: 'failed', finishedAt: new Date(), message });
      await em.flush();
      throw new BackupFailed(message);
    } finally {
      place.close();
    }
  } finally {
    await lock.end();
  }
}

const placeProblems: Record<string, string> = {
  ENOENT: 'a folder on its way does not exist',
  ENOTDIR: 'a part of its path is a file, not a folder',
  EACCES: 'the server may not write there',
  EPERM: 'the server may not write there',
  EROFS: 'the disk is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/** What went wrong, as a sentence an administrator can act on (the System tab and the e-mail show it). */
function failureSentence(error: unknown, location: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && placeProblems[code]) return `The backup could not be written to ${location}: ${placeProblems[code]} (${code}).`;
  return error instanceof Error ? error.message : String(error);
}

/** Whether a backup of this database is being taken now, by any instance: someone holds the lock (advisory locks are per cluster, so per database here). */
export async function backupRunning(em: EntityManager): Promise<boolean> {
  const key = BigInt.asUintN(64, backupLockKey);
  const [row] = await em.execute<{ held: boolean }[]>(
    `select exists (
       select 1 from pg_locks
        where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())
          and classid = ? and objid = ? and objsubid = 1
     ) as held`,
    [Number(key >> 32n), Number(key & 0xffffffffn)],
  );
  return row?.held ?? false;
}

/** How long without a backup before the administrators are told. */
export const overdueMs = 36 * 60 * 60_000;

/**
 * E-mails the active administrators once about a trouble with backups (a failure, or none for
 * 36 hours), in the caller's unit of work; nothing when they were told already.
 */
export async function alertAdministrators(em: EntityManager, kind: 'backup-failed' | 'backup-overdue', sentence: string, systemUrl: string): Promise<boolean> {
  if (await em.findOne(BackupAlert, { kind })) return false;
  const admins = await em.execute<{ email: string; first_name: string }[]>(`select email, first_name from users where role = 'administrator' and is_active`);
  for (const admin of admins) {
    const mail = renderMail({
      subject: kind === 'backup-failed' ? 'The nightly backup of the investor portal failed' : 'The investor portal has not been backed up for 36 hours',
      greeting: `Hello ${admin.first_name},`,
      blocks: [
        { kind: 'paragraph', text: sentence },
        { kind: 'paragraph', text: 'Until a backup succeeds, a lost disk would lose documents and accounts. The System tab shows the details.' },
        { kind: 'button', label: 'Open the System tab', url: systemUrl },
      ],
      note: 'You receive this because you are an administrator. You will get one e-mail per problem, not one per night.',
    });
    enqueueMail(em, { to: admin.email, ...mail });
  }
  em.create(BackupAlert, { kind, sentAt: new Date() });
  await em.flush();
  return true;
}
