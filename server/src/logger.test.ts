import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, logDestination } from './logger';

const serverDir = path.join(import.meta.dirname, '..');

/** Node running `code` (an ES module that may import ./src/logger.ts), with what it wrote and how it ended. */
async function runNode(code: string): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: serverDir });
    return { stdout, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    return { stdout: failed.stdout, code: failed.code };
  }
}

describe('the log', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-logger-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a quiet server’s line within a moment, though lines are written in batches', async () => {
    const file = path.join(dir, 'quiet.log');
    const logger = createLogger('info', logDestination(file));
    logger.info('request', { method: 'GET', path: '/api/properties', status: 200, durationMs: 0.42, requestId: 'quiet-1' });
    await expect.poll(() => readFileSync(file, 'utf8'), { timeout: 2_000 }).toContain('"requestId":"quiet-1"');
    const line = JSON.parse(readFileSync(file, 'utf8').trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'info', msg: 'request', path: '/api/properties', status: 200, durationMs: 0.42 });
    expect(new Date(String(line.time)).toISOString()).toBe(line.time);
  });

  it('writes the lines still waiting when the process exits at once', async () => {
    const { stdout, code } = await runNode(
      `import { createLogger } from './src/logger.ts';
       const logger = createLogger('info');
       for (let i = 0; i < 3; i++) logger.info('request', { requestId: 'exit-' + i, status: 200 });
       process.exit(0);`,
    );
    expect(code).toBe(0);
    expect(stdout.trim().split('\n').map((line) => (JSON.parse(line) as { requestId: string }).requestId)).toEqual(['exit-0', 'exit-1', 'exit-2']);
  });

  it('writes the lines still waiting when the process dies of an uncaught exception', async () => {
    const { stdout, code } = await runNode(
      `import { createLogger } from './src/logger.ts';
       createLogger('info').info('before the crash');
       setImmediate(() => { throw new Error('a bug'); });`,
    );
    expect(code).toBe(1);
    expect(stdout).toContain('"msg":"before the crash"');
  });
});
