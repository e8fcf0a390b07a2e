import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleDestination, createLogger, logDestination } from './logger';

const serverDir = path.join(import.meta.dirname, '..');

/** Node running `code` (an ES module that may import ./src/logger.ts), with what it wrote and how it ended. */
async function runNode(code: string): Promise<{ stdout: string; code: number }> {
  return run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code]);
}

async function run(file: string, args: string[]): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await promisify(execFile)(file, args, { cwd: serverDir });
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

  // eslint-disable-next-line no-control-regex -- the terminal's colour codes
  const withoutColours = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

  it('writes readable lines for a terminal, and one JSON object a line for anything else', async () => {
    const readable = path.join(dir, 'terminal.log');
    const terminal = createLogger('info', consoleDestination(true, readable));
    terminal.info('request', { method: 'GET', path: '/api/properties', status: 200, durationMs: 0.42, requestId: 'tty-1' });
    terminal.error('answer failed GET /x \u001b[2J', new Error('the disk is on fire'));
    await expect.poll(() => readFileSync(readable, 'utf8'), { timeout: 2_000 }).toContain('the disk is on fire');
    const lines = withoutColours(readFileSync(readable, 'utf8')).split('\n');
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/properties 200 0\.42 ms \{"requestId":"tty-1"\}$/);
    // An escape sequence in a message (clear the screen) is not passed to the terminal.
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] ERROR: answer failed GET \/x \uFFFD\[2J/);
    expect(readFileSync(readable, 'utf8')).not.toContain('"level"');

    const machine = path.join(dir, 'machine.log');
    createLogger('info', consoleDestination(false, machine)).info('request', { method: 'GET', path: '/', status: 200, requestId: 'json-1' });
    await expect.poll(() => readFileSync(machine, 'utf8'), { timeout: 2_000 }).toContain('"requestId":"json-1"');
    expect(JSON.parse(readFileSync(machine, 'utf8').trim())).toMatchObject({ level: 'info', msg: 'request', path: '/', requestId: 'json-1' });
  });

  it('prints readable lines when standard output is a terminal, and JSON when it is a pipe', async () => {
    const script = path.join(dir, 'which-output.mts');
    writeFileSync(
      script,
      `import { createLogger } from ${JSON.stringify(path.join(serverDir, 'src', 'logger.ts'))};
       createLogger('info').info('request', { method: 'GET', path: '/api/health/ready', status: 200, durationMs: 1.5, requestId: 'which' });
       process.exit(0);`,
    );
    // script(1) runs the process on a pseudo-terminal, as a shell's `pnpm start` does.
    const atTerminal = await run('script', ['-qec', `${process.execPath} --import tsx ${script}`, '/dev/null']);
    expect(atTerminal.code).toBe(0);
    expect(withoutColours(atTerminal.stdout)).toMatch(/INFO: GET \/api\/health\/ready 200 1\.5 ms \{"requestId":"which"\}/);
    const piped = await run(process.execPath, ['--import', 'tsx', script]);
    expect(JSON.parse(piped.stdout.trim())).toMatchObject({ level: 'info', msg: 'request', requestId: 'which' });
  });
});
