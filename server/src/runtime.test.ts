import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChildServer } from '../test/child-server';
import { createTestDatabase } from '../test/harness';

// Node 24 LTS comes from the workspace's `node` devDependency (node_modules/.bin/node), which
// every package script finds first on its PATH, whatever Node the machine has (README, issue 37).
const major = (version: string) => Number(/^v?(\d+)\./.exec(version)?.[1]);

describe('the runtime', () => {
  it('runs the tests on Node 24', () => {
    expect(major(process.version)).toBe(24);
  });

  it('gives a program that starts `node` by name Node 24', () => {
    expect(major(execFileSync('node', ['--version'], { encoding: 'utf8' }).trim())).toBe(24);
  });

  it('starts the server on Node 24 and says so in its first lines', async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-runtime-'));
    chmodSync(dataDir, 0o755);
    const server = await ChildServer.start({ DATABASE_URL: database.url, DATA_DIR: dataDir });
    try {
      const running = server.lines().find((line) => String(line.msg).includes('is running at'));
      expect(running?.msg).toMatch(/ on Node v24\.\d+\.\d+$/);
    } finally {
      await server.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
