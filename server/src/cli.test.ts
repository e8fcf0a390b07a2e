import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '../test/harness';
import { freePort } from './db/embedded';
import { restoreMarkerTable } from './features/backups/database-snapshot';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/** Runs the real CLI as an operator would and returns what it printed. */
function start(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'everest-cli-')), ...env },
    encoding: 'utf8',
    // Long enough for a first start of the embedded PostgreSQL (initdb, migrations, demo data).
    timeout: 120_000,
  });
  return { status: result.status, stderr: result.stderr.trim() };
}

describe('start-up failures', () => {
  it('stops with one sentence naming PORT when it is not a number', () => {
    const { status, stderr } = start({ PORT: 'abc' });
    expect(status).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^The environment variable PORT \("abc"\) is invalid/);
  });

  it('stops with one sentence when DATABASE_URL does not answer', async () => {
    const port = await freePort();
    const { status, stderr } = start({ DATABASE_URL: `postgres://nobody:secret@127.0.0.1:${port}/everest` });
    expect(status).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`^Cannot connect to the database at 127\\.0\\.0\\.1:${port}/everest: .+ Check DATABASE_URL\\.$`));
    expect(stderr).not.toContain('secret');
  });

  it('stops with one sentence when its port is taken, and stops the embedded PostgreSQL it had started', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    // 755: the embedded PostgreSQL's OS user must reach it when the tests run as root.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-cli-'));
    chmodSync(dataDir, 0o755);
    try {
      const { status, stderr } = start({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' });
      expect(stderr).toBe(`Port ${port} is already in use: stop the other program or set PORT to a free port.`);
      expect(status).toBe(1);
      // PostgreSQL had started (its data folder was made), and was stopped before the exit.
      expect(existsSync(path.join(dataDir, 'postgres', 'pg', 'PG_VERSION'))).toBe(true);
      expect(existsSync(path.join(dataDir, 'postgres', 'pg', 'postmaster.pid'))).toBe(false);
    } finally {
      taken.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);

  it('refuses to start, with one sentence, on an install whose restore did not finish', async () => {
    const database = await createTestDatabase();
    try {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query(`create table ${restoreMarkerTable} (archive text)`);
      await client.end();
      const { status, stderr } = start({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
      expect(stderr).toBe('A restore into this install began and did not finish, so its data may be incomplete: run `restore ARCHIVE` again (it starts over), then start the server.');
      expect(status).toBe(1);
    } finally {
      await database.drop();
    }
  });
});
