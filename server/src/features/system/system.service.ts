import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Cron } from 'croner';
import type { SystemStatusAnswer } from '@everest/core/contract';
import { formatFileSize, timeZone } from '@everest/core/domain';
import type { Config } from '../../config';
import { onSameDisk } from '../backups/backup-place';
import { backupRunning, overdueMs } from '../backups/backup-runs';
import { BackupRun } from '../backups/backup-run.entity';
import { mailLanes } from '../mail/outbox-message.entity';
import { serverVersion } from '../backups/take-backup';

/** Under this share of free space where DATA_DIR lives, the tab warns. */
export const lowDiskShare = 0.1;

/** The next time the schedule fires, or null when scheduled backups are off. */
export function nextBackup(schedule: string | null, now = new Date()): Date | null {
  if (!schedule) return null;
  const cron = new Cron(schedule, { timezone: timeZone, paused: true });
  const next = cron.nextRun(now);
  cron.stop();
  return next;
}

/** The folder or bucket backups go to, for people. */
export function backupLocation(config: Pick<Config, 'backups'>): string {
  const to = config.backups.to;
  return to.kind === 'folder' ? to.path : `s3://${to.bucket}${to.prefix ? `/${to.prefix}` : ''}`;
}

/** What the System tab shows (GET /api/admin/system); the warnings are the e-mails' sentences. */
export async function systemStatus(em: EntityManager, config: Config, embedded: boolean, now = new Date()): Promise<SystemStatusAnswer> {
  const lastSuccess = await em.findOne(BackupRun, { outcome: 'succeeded' }, { orderBy: { finishedAt: 'desc' } });
  const lastFailure = await em.findOne(
    BackupRun,
    { outcome: 'failed', ...(lastSuccess?.finishedAt ? { startedAt: { $gt: lastSuccess.finishedAt } } : {}) },
    { orderBy: { startedAt: 'desc' } },
  );
  const running = (await backupRunning(em)) ? await em.findOne(BackupRun, { outcome: 'running' }, { orderBy: { startedAt: 'desc' } }) : null;
  const outbox = await em.execute<{ lane: string; status: string; count: number }[]>(
    `select lane, status, count(*)::int as count from outbox_messages where status in ('pending', 'failed') group by lane, status`,
  );
  const countOf = (lane: string, status: string) => outbox.find((row) => row.lane === lane && row.status === status)?.count ?? 0;
  const [database] = await em.execute<{ size: string; migration: string | null }[]>(
    `select pg_database_size(current_database())::text as size, (select name from mikro_orm_migrations order by id desc limit 1) as migration`,
  );
  const disk = await statfs(config.dataDir).catch(() => statfs(path.dirname(config.dataDir)));
  const freeBytes = disk.bavail * disk.bsize;
  const totalBytes = disk.blocks * disk.bsize;
  const sameDisk = await onSameDisk(config.backups.to, config.dataDir);
  const schedule = config.backups.schedule;

  const warnings: SystemStatusAnswer['warnings'] = [];
  if (lastFailure?.message) {
    warnings.push({ kind: 'backup-failed', message: `The last backup failed: ${lastFailure.message}` });
  }
  if (lastSuccess?.finishedAt && now.getTime() - lastSuccess.finishedAt.getTime() > overdueMs) {
    warnings.push({ kind: 'backup-overdue', message: `No backup has succeeded for ${Math.floor((now.getTime() - lastSuccess.finishedAt.getTime()) / 3_600_000)} hours.` });
  }
  if (!schedule) {
    warnings.push({
      kind: 'backups-off',
      message: 'Scheduled backups are off: set BACKUP_KEY (and BACKUP_TO, best an s3:// bucket elsewhere) so that the data is backed up every night.',
    });
  } else if (!lastSuccess) {
    warnings.push({ kind: 'backup-never', message: 'No backup has been taken yet: until one is, a lost disk would lose every document and account.' });
  }
  if (sameDisk) {
    warnings.push({
      kind: 'backup-same-disk',
      message: 'Backups are kept on the same disk as the data, so a lost disk would take them too: set BACKUP_TO to an s3:// bucket or another disk.',
    });
  }
  if (totalBytes > 0 && freeBytes / totalBytes < lowDiskShare) {
    warnings.push({ kind: 'disk-low', message: `The disk that holds the data has ${formatFileSize(freeBytes)} free of ${formatFileSize(totalBytes)}: free some space before uploads fail.` });
  }
  const givenUp = mailLanes.reduce((sum, lane) => sum + countOf(lane, 'failed'), 0);
  if (givenUp > 0) {
    warnings.push({
      kind: 'mail-given-up',
      message: `${givenUp} e-mail${givenUp === 1 ? ' was' : 's were'} given up after their last attempt: once the cause is fixed (SMTP settings, a full mailbox), an operator runs mail:retry to send them again.`,
    });
  }

  return {
    warnings,
    backups: {
      schedule,
      timeZone,
      next: nextBackup(schedule, now)?.toISOString() ?? null,
      location: backupLocation(config),
      sameDisk,
      keep: config.backups.keep,
      lastSuccess:
        lastSuccess?.finishedAt && lastSuccess.archive
          ? {
              finishedAt: lastSuccess.finishedAt.toISOString(),
              sizeBytes: lastSuccess.sizeBytes ?? 0,
              filesCopied: lastSuccess.filesCopied ?? 0,
              filesTotal: lastSuccess.filesTotal ?? 0,
              location: lastSuccess.location,
              archive: lastSuccess.archive,
              sameDisk: lastSuccess.sameDisk,
              trigger: lastSuccess.trigger,
            }
          : null,
      lastFailure: lastFailure ? { at: (lastFailure.finishedAt ?? lastFailure.startedAt).toISOString(), message: lastFailure.message ?? 'It failed.' } : null,
      runningSince: running?.startedAt.toISOString() ?? null,
    },
    outbox: { lanes: mailLanes.map((lane) => ({ lane, pending: countOf(lane, 'pending'), givenUp: countOf(lane, 'failed') })) },
    disk: { path: config.dataDir, freeBytes, totalBytes },
    database: { sizeBytes: Number(database?.size ?? 0), embedded },
    version: serverVersion,
    migration: database?.migration ?? 'none',
  };
}
