import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const backupTriggers = ['schedule', 'command'] as const;
export const backupOutcomes = ['running', 'succeeded', 'failed'] as const;

/**
 * One backup, scheduled or run by an operator, as the System tab reports it. Written when it
 * starts and when it ends; a run left 'running' by a process that died is read as failed.
 */
export const BackupRun = defineEntity({
  name: 'BackupRun',
  tableName: 'backup_runs',
  properties: {
    id: p.integer().primary(),
    trigger: p.enum([...backupTriggers]),
    outcome: p.enum([...backupOutcomes]),
    startedAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
    /** A folder or `s3://bucket/prefix`. */
    location: p.text(),
    archive: p.text().nullable(),
    sizeBytes: p.bigint('number').nullable(),
    filesCopied: p.integer().nullable(),
    filesTotal: p.integer().nullable(),
    sameDisk: p.boolean(),
    /** Why it failed, in a sentence. */
    message: p.text().nullable(),
  },
});
export type IBackupRun = InferEntity<typeof BackupRun>;

/**
 * An e-mail sent to the administrators about backups ('backup-failed', 'backup-overdue'): one
 * per trouble, not one per night. A backup that succeeds clears them.
 */
export const BackupAlert = defineEntity({
  name: 'BackupAlert',
  tableName: 'backup_alerts',
  properties: {
    kind: p.string().length(40).primary(),
    sentAt: p.datetime(),
  },
});
