import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runBounded } from './run-bounded';

/**
 * Issue 33: `pnpm drill` hung on a fresh machine, where sqlmap is not installed (the drill
 * waited for the exit of a program that never started). scripts/drill-setup.sh, run first by
 * `pnpm drill`, installs it or stops at once with one sentence; the drill's programs run with a
 * time limit. These run the script with a PATH of our choosing: no apt-get is ever called.
 */
const setup = fileURLToPath(new URL('../scripts/drill-setup.sh', import.meta.url));
const bash = '/bin/bash';

describe('pnpm drill on a fresh machine', () => {
  const folders: string[] = [];
  /** A PATH of one folder holding only these programs (shell scripts). */
  const pathWith = (programs: Record<string, string>) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-drill-path-'));
    folders.push(dir);
    for (const [name, script] of Object.entries(programs)) {
      writeFileSync(path.join(dir, name), `#!/bin/bash\n${script}\n`);
      chmodSync(path.join(dir, name), 0o755);
    }
    return dir;
  };
  afterAll(() => {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  /** The script with only this PATH (its own time limit: 10 s). */
  const runSetup = (pathValue: string) =>
    new Promise<{ status: number | null; stderr: string; ms: number }>((resolve) => {
      const started = Date.now();
      execFile(bash, [setup], { env: { PATH: pathValue }, timeout: 10_000 }, (error, _stdout, stderr) =>
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr, ms: Date.now() - started }),
      );
    });

  it('stops at once with one sentence when sqlmap is missing and apt-get is not there to install it', async () => {
    const result = await runSetup(pathWith({ id: 'echo 0' }));
    expect(result.status).toBe(1);
    expect(result.ms).toBeLessThan(5_000);
    expect(result.stderr.trim()).toBe(
      "pnpm drill needs sqlmap (Debian's sqlmap package) and it is not installed, and apt-get is not here to install it: install sqlmap (apt-get install sqlmap) and run pnpm drill again.",
    );
  });

  it('stops at once when installing would need root and sudo asks for a password', async () => {
    const result = await runSetup(pathWith({ id: 'echo 1000', 'apt-get': 'exit 0', timeout: 'shift; exec "$@"', sudo: 'exit 1' }));
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^pnpm drill needs sqlmap .* installing it needs root or sudo without a password: install sqlmap/);
  });

  it('says so in one sentence when apt-get cannot install it, and goes on when sqlmap is there', async () => {
    const failing = await runSetup(pathWith({ id: 'echo 0', 'apt-get': 'exit 100', timeout: 'shift; exec "$@"' }));
    expect(failing.status).toBe(1);
    expect(failing.stderr.trim().split('\n')).toHaveLength(1);
    expect(failing.stderr).toMatch(/could not be installed: apt-get update failed/);

    const present = await runSetup(pathWith({ sqlmap: 'echo 1.7.2' }));
    expect(present).toMatchObject({ status: 0, stderr: '' });
  });

  it('answers at once for a program that is not installed, and stops one that runs past its time limit', async () => {
    const missing = await runBounded('no-such-program-everest', [], 60);
    expect(missing.error?.code).toBe('ENOENT');
    expect(missing.seconds).toBeLessThan(5);

    const slow = await runBounded(bash, ['-c', 'sleep 30 & sleep 30; echo never'], 1);
    expect(slow.exit).toBeNull();
    expect(slow.output).not.toContain('never');
    expect(slow.seconds).toBeLessThan(10);
  });
});
