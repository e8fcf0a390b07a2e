import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { startEmbeddedPostgres } from '../../db/embedded';

// The commands as an operator runs them, on the embedded default: `backup` of an install,
// `backup --verify` of its archive, and `restore` into a fresh DATA_DIR with its own embedded
// PostgreSQL, which then holds the same rows.

const serverDir = fileURLToPath(new URL('../../..', import.meta.url));
const backupKey = 'the-commands-test-backup-key-0123456789';

function cli(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', BACKUP_KEY: backupKey, ...env },
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

describe('the backup, backup --verify and restore commands', () => {
  let source: TestServer;
  let backupsDir: string;
  let restoredDir: string;
  beforeAll(async () => {
    source = await startTestServer({ seed: true });
    backupsDir = mkdtempSync(path.join(os.tmpdir(), 'everest-backups-'));
    restoredDir = mkdtempSync(path.join(os.tmpdir(), 'everest-restored-'));
    // 755: the embedded PostgreSQL's OS user must reach it when the tests run as root.
    chmodSync(restoredDir, 0o755);
  });
  afterAll(async () => {
    await source.close();
    rmSync(backupsDir, { recursive: true, force: true });
    rmSync(restoredDir, { recursive: true, force: true });
  });

  it('backs up, verifies, and restores into a fresh embedded install, which then holds the same users', async () => {
    const env = { DATABASE_URL: source.databaseUrl, DATA_DIR: source.services.config.dataDir };
    const backup = cli(['backup', '--to', backupsDir], env);
    expect(backup.stderr).toMatch(/Backed up \d+ rows and \d+ files/);
    expect(backup.status).toBe(0);
    const archive = backup.stdout.split('\n').at(-1) ?? '';
    expect(path.dirname(archive)).toBe(backupsDir);
    expect(readdirSync(backupsDir)).toContain(path.basename(archive));

    const verify = cli(['backup', '--verify', archive], env);
    expect(verify.stderr).toContain('is sound: it restores whole.');
    expect(verify.status).toBe(0);

    const restore = cli(['restore', archive], { DATA_DIR: restoredDir });
    expect(restore.stderr).toMatch(/every one compared with the backup: no difference\./);
    expect(restore.status).toBe(0);
    // The command stopped the PostgreSQL it started; start it again to read what it holds.
    expect(existsSync(path.join(restoredDir, 'postgres', 'pg', 'postmaster.pid'))).toBe(false);

    const again = cli(['restore', archive], { DATA_DIR: restoredDir });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^The install is not empty \(table \w+ has rows\): a restore goes only into a fresh install\./);

    const emails = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<{ email: string }>('select email from users order by email')).rows.map((row) => row.email);
      } finally {
        await client.end();
      }
    };
    const cluster = await startEmbeddedPostgres(path.join(restoredDir, 'postgres'));
    try {
      expect(await emails(cluster.url('everest'))).toEqual(await emails(source.databaseUrl));
    } finally {
      await cluster.stop();
    }
  }, 300_000);

  it('refuses to back up without BACKUP_KEY, with a sentence, and writes nothing', () => {
    const result = cli(['backup', '--to', backupsDir], { DATABASE_URL: source.databaseUrl, DATA_DIR: source.services.config.dataDir, BACKUP_KEY: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^BACKUP_KEY is not set: a backup holds every K-1/);
    expect(result.stdout).toBe('');
  });
});
