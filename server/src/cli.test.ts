import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from './db/embedded';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/** Runs the real CLI as an operator would and returns what it printed. */
function start(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'everest-cli-')), ...env },
    encoding: 'utf8',
    timeout: 60_000,
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
});
