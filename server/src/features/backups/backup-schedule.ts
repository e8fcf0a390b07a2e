import { Cron } from 'croner';
import { timeZone } from '@everest/core/domain';
import type { Logger } from '../../logger';
import { alertAdministrators, BackupFailed, overdueMs, runBackup, type BackupContext } from './backup-runs';
import { BackupRun } from './backup-run.entity';

/** How often each instance looks whether backups are overdue. */
const overdueCheckMs = 60 * 60_000;

/**
 * BACKUP_SCHEDULE on every instance: each fires at the same minute, and the backup lock lets
 * exactly one take the backup (the others find it busy). A failure, or 36 hours without a
 * backup, e-mails the administrators once (alertAdministrators).
 */
export class BackupSchedule {
  private job: Cron | undefined;
  private overdueTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly context: BackupContext & { systemUrl: string; onMailQueued: () => void },
    private readonly schedule: string | null,
  ) {}

  start(): void {
    if (!this.schedule || this.job) return;
    this.job = new Cron(this.schedule, { timezone: timeZone, protect: true }, () => void this.backUpNow());
    this.overdueTimer = setInterval(() => void this.checkOverdue(), overdueCheckMs);
    this.overdueTimer.unref();
  }

  /** One scheduled backup now (unless this instance is taking one); failures are logged and e-mailed, never thrown. */
  async backUpNow(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(): Promise<void> {
    const { logger } = this.context;
    try {
      const result = await runBackup(this.context, { trigger: 'schedule' });
      if (result === 'busy') return;
      logger.info(`Backed up ${result.rows} rows and ${result.filesTotal} files (${result.filesCopied} new) into ${result.location}/${result.archive}.`);
    } catch (error) {
      const sentence = error instanceof Error ? error.message : String(error);
      logger.error(`The scheduled backup failed: ${sentence}`, error instanceof BackupFailed ? undefined : error);
      await this.alert('backup-failed', `The scheduled backup failed: ${sentence}`, logger);
    }
  }

  /** E-mails the administrators when no backup has succeeded for 36 hours (or since backups began, 36 hours ago). */
  async checkOverdue(now = new Date()): Promise<void> {
    const em = this.context.orm.em.fork();
    try {
      const last = await em.findOne(BackupRun, { outcome: 'succeeded' }, { orderBy: { finishedAt: 'desc' } });
      const first = last ?? (await em.findOne(BackupRun, {}, { orderBy: { startedAt: 'asc' } }));
      const since = last?.finishedAt ?? first?.startedAt;
      if (!since || now.getTime() - since.getTime() <= overdueMs) return;
      const hours = Math.floor((now.getTime() - since.getTime()) / 3_600_000);
      await this.alert('backup-overdue', `No backup of the investor portal has succeeded for ${hours} hours.`, this.context.logger);
    } catch (error) {
      this.context.logger.warn('Checking whether backups are overdue failed; it runs again within the hour.', error);
    }
  }

  private async alert(kind: 'backup-failed' | 'backup-overdue', sentence: string, logger: Logger): Promise<void> {
    try {
      if (await alertAdministrators(this.context.orm.em.fork(), kind, sentence, this.context.systemUrl)) this.context.onMailQueued();
    } catch (error) {
      logger.error('E-mailing the administrators about backups failed.', error);
    }
  }

  /** Stops the schedule and waits for a backup this instance is taking. */
  async stop(): Promise<void> {
    this.job?.stop();
    this.job = undefined;
    clearInterval(this.overdueTimer);
    await this.running;
  }
}

