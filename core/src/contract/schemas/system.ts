import { z } from 'zod';
import { timestamp } from './fields';

// The System tab: is the firm's data safe (backups), is mail going out, is the disk filling.
// The server words every warning, so that the tab, the e-mail and the API say the same.

const bytes = z.number().int().nonnegative();

/** A backup that completed: its archive is in `location`. */
export const backupSummary = z.object({
  finishedAt: timestamp,
  /** The archive's bytes, not counting the document files it shares with earlier backups. */
  sizeBytes: bytes,
  /** Files copied by this backup: the ones no earlier backup in the same place had. */
  filesCopied: z.number().int().nonnegative(),
  filesTotal: z.number().int().nonnegative(),
  /** A folder on the server, or `s3://bucket/prefix`. */
  location: z.string(),
  archive: z.string(),
  /** On the same disk as the data: a lost disk takes the backups with it. */
  sameDisk: z.boolean(),
  trigger: z.enum(['schedule', 'command']),
});
export type BackupSummary = z.infer<typeof backupSummary>;

export const systemWarningKinds = ['backups-off', 'backup-never', 'backup-failed', 'backup-overdue', 'backup-same-disk', 'disk-low', 'mail-given-up'] as const;
export type SystemWarningKind = (typeof systemWarningKinds)[number];

export const systemStatusAnswer = z.object({
  /** What needs an administrator's attention, worst first; each a sentence that says what to do. */
  warnings: z.array(z.object({ kind: z.enum(systemWarningKinds), message: z.string() })),
  backups: z.object({
    /** BACKUP_SCHEDULE as a cron expression, or null when scheduled backups are off. */
    schedule: z.string().nullable(),
    timeZone: z.string(),
    /** The next scheduled backup, or null when they are off. */
    next: timestamp.nullable(),
    /** Where scheduled backups go. */
    location: z.string(),
    sameDisk: z.boolean(),
    keep: z.object({ daily: z.number().int(), weekly: z.number().int(), monthly: z.number().int() }),
    lastSuccess: backupSummary.nullable(),
    lastFailure: z.object({ at: timestamp, message: z.string() }).nullable(),
    /** A backup being taken now, by this or another instance. */
    runningSince: timestamp.nullable(),
  }),
  outbox: z.object({
    lanes: z.array(z.object({ lane: z.enum(['transactional', 'bulk']), pending: z.number().int().nonnegative(), givenUp: z.number().int().nonnegative() })),
  }),
  disk: z.object({ path: z.string(), freeBytes: bytes, totalBytes: bytes }),
  database: z.object({ sizeBytes: bytes, embedded: z.boolean() }),
  version: z.string(),
  /** The last migration applied: what a backup is restored at. */
  migration: z.string(),
});
export type SystemStatusAnswer = z.infer<typeof systemStatusAnswer>;
