import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDir } from '../test/child-server';
import { createTestDatabase, type TestDatabase } from '../test/harness';
import { freePort } from './db/embedded';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, holds: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The server at a real terminal (a pseudo-terminal of util-linux's `script`), which then stops
 * being read and is closed under it, as when an SSH session drops. Its readable log lines could
 * not be written: the main thread waited for the terminal forever, so nothing was answered and
 * no signal was handled.
 */
describe('a server whose terminal goes away', () => {
  let database: TestDatabase;
  let dataDir = '';
  let terminal: ChildProcess;
  let output = '';
  let pid = 0;
  let url = '';

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-hangup-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // The shell prints its pid, then becomes the server (exec), so the pid is the server's.
    const command = `echo "server pid $$"; exec '${process.execPath}' --import tsx src/cli.ts start`;
    terminal = spawn('script', ['-qfc', command, '/dev/null'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', REQUIRE_SECOND_STEP: 'none', DATABASE_URL: database.url, DATA_DIR: dataDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    terminal.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await until('the server running at its terminal', () => output.includes('is running at'), 60_000);
    pid = Number(/server pid (\d+)/.exec(output)?.[1]);
  });
  afterAll(async () => {
    if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    terminal.kill('SIGKILL');
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps answering while nobody reads its terminal, and stops cleanly when the terminal closes', async () => {
    expect(alive(pid)).toBe(true);
    // Nobody reads the terminal any more: `script` blocks on its full pipe, the terminal's
    // buffer fills, and every log line the server writes is refused (EAGAIN).
    terminal.stdout?.pause();
    const long = 'a'.repeat(1500);
    let answered = 0;
    for (let batch = 0; batch < 20; batch += 1) {
      // Each 404 is a request line of about 1.6 kB: 400 of them are far more than the pipe and
      // the terminal hold.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => fetch(`${url}/api/no-such-call-${batch}-${i}-${long}`, { signal: AbortSignal.timeout(10_000) }).then((res) => res.status)),
      );
      answered += answers.filter((status) => status === 404).length;
    }
    expect(answered).toBe(400);
    expect((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) })).status).toBe(200);

    // The terminal closes (its `script` is gone): the kernel hangs it up, and the server stops
    // as for SIGTERM, freeing its port and its data folder.
    terminal.kill('SIGKILL');
    await until('the server stopping on its hangup', () => !alive(pid), 40_000);
    await expect(fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow();
  }, 120_000);
});
