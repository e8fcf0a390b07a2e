import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemStatusAnswer } from '@everest/core/contract';
import { queuedMails } from '../../../test/queued-mails';
import { migrationsList } from '../../db/migrations';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { backupLockKey, runBackup } from './backup-runs';
import { BackupAlert, BackupRun } from './backup-run.entity';

const backupKey = 'a-backup-key-for-the-schedule-tests-0123';
const admin = 'admin@example.com';

describe('scheduled backups and what the administrators are told', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let adminToken = '';
  const em = () => server.services.orm.em.fork();
  const system = async () => {
    const res = await client.call('/api/admin/system', { token: adminToken });
    expect(res.status, res.text).toBe(200);
    return systemStatusAnswer.parse(res.json);
  };
  const backupMails = async () => (await queuedMails(em())).filter((mail) => /backup|backed up/i.test(mail.subject));

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { BACKUP_KEY: backupKey } });
    client = recordingClient(server);
    adminToken = await client.signIn(admin);
  });
  afterAll(async () => {
    await server.close();
  });

  it('says before any backup that none has been taken, where they go and when the next is', async () => {
    const status = await system();
    expect(status.backups.schedule).toBe('0 2 * * *');
    expect(status.backups.timeZone).toBe('America/Los_Angeles');
    expect(status.backups.lastSuccess).toBeNull();
    expect(status.backups.location).toBe(`${server.services.config.dataDir}/backups`);
    // 02:00 in Pasadena is 10:00 UTC in winter.
    expect(status.backups.next).toMatch(/T10:00:00\.000Z$/);
    expect(status.warnings.map((w) => w.kind)).toEqual(expect.arrayContaining(['backup-never', 'backup-same-disk']));
    expect(status.warnings.find((w) => w.kind === 'backup-same-disk')?.message).toMatch(/same disk .*s3:\/\//);
    expect(status.migration).toBe(migrationsList.at(-1)?.name);
    expect(status.database.sizeBytes).toBeGreaterThan(1_000_000);
    expect(status.disk.totalBytes).toBeGreaterThan(status.disk.freeBytes);
  });

  it('takes exactly one backup when two instances fire at once, and the System tab shows it', async () => {
    const second = await startTestServer({ besides: server, env: { BACKUP_KEY: backupKey } });
    try {
      await Promise.all([server.services.backupSchedule.backUpNow(), second.services.backupSchedule.backUpNow()]);
    } finally {
      await second.close();
    }
    const runs = await em().find(BackupRun, {});
    expect(runs.map((run) => [run.trigger, run.outcome])).toEqual([['schedule', 'succeeded']]);
    const status = await system();
    expect(status.backups.lastSuccess).toMatchObject({ archive: runs[0]?.archive, trigger: 'schedule', sameDisk: true, filesCopied: runs[0]?.filesTotal });
    expect(status.backups.lastSuccess?.sizeBytes).toBeGreaterThan(1000);
    expect(status.warnings.map((w) => w.kind)).not.toContain('backup-never');
  });

  it('finds the lock held by another backup and takes none', async () => {
    const other = new pg.Client({ connectionString: server.databaseUrl });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1)', [backupLockKey.toString()]);
      const before = await em().count(BackupRun, {});
      expect(await runBackup({ ...server.services, databaseUrl: server.databaseUrl, dataDir: server.services.config.dataDir, backups: server.services.config.backups, secretsFromEnvironment: [] }, { trigger: 'command' })).toBe('busy');
      expect(await em().count(BackupRun, {})).toBe(before);
      const status = await system();
      expect(status.backups.runningSince).toBeNull();
    } finally {
      await other.end();
    }
  });

  it('e-mails the administrators once when scheduled backups fail, shows the sentence, and clears it when one succeeds', async () => {
    // Its failures are logged as errors, which this test reads from the runs instead.
    const broken = await startTestServer({ besides: server, env: { BACKUP_KEY: backupKey, BACKUP_TO: '/dev/null/backups' }, logTo: { write: () => undefined } });
    try {
      await broken.services.backupSchedule.backUpNow();
      await broken.services.backupSchedule.backUpNow();
    } finally {
      await broken.close();
    }
    const failed = await em().find(BackupRun, { outcome: 'failed' });
    expect(failed).toHaveLength(2);
    expect(failed[0]?.message).toBe('The backup could not be written to /dev/null/backups: a part of its path is a file, not a folder (ENOTDIR).');
    const mails = await backupMails();
    const admins = await em().getConnection().execute<{ email: string }[]>(`select email from users where role = 'administrator' and is_active`);
    expect(mails.map((mail) => mail.recipient).sort()).toEqual(admins.map((row) => row.email).sort());
    expect(mails[0]?.subject).toBe('The nightly backup of the investor portal failed');
    expect(mails[0]?.text).toContain(failed[1]?.message ?? 'x');
    const status = await system();
    expect(status.warnings[0]?.kind).toBe('backup-failed');
    expect(status.warnings[0]?.message).toContain('The last backup failed');
    expect(status.backups.lastFailure?.message).toBe(failed[1]?.message);

    await server.services.backupSchedule.backUpNow();
    expect(await em().count(BackupAlert, {})).toBe(0);
    expect((await system()).backups.lastFailure).toBeNull();
  });

  it('e-mails the administrators once when no backup has succeeded for 36 hours', async () => {
    const before = (await backupMails()).length;
    await em().getConnection().execute(`update backup_runs set finished_at = now() - interval '37 hours', started_at = now() - interval '37 hours'`);
    await server.services.backupSchedule.checkOverdue();
    await server.services.backupSchedule.checkOverdue();
    const mails = (await backupMails()).slice(before);
    expect(mails.length).toBeGreaterThan(0);
    expect(new Set(mails.map((mail) => mail.subject))).toEqual(new Set(['The investor portal has not been backed up for 36 hours']));
    expect(mails.length).toBe(new Set(mails.map((mail) => mail.recipient)).size);
    expect((await system()).warnings.map((w) => w.kind)).toContain('backup-overdue');
  });

  it('is for administrators only', async () => {
    expect((await client.call('/api/admin/system')).status).toBe(401);
    const investor = await client.signIn('investor@example.com');
    expect((await client.call('/api/admin/system', { token: investor })).status).toBe(403);
    const employee = await client.signIn('employee@example.com');
    expect((await client.call('/api/admin/system', { token: employee })).status).toBe(403);
  });
});
