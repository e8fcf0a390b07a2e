import { spawn } from 'node:child_process';

/**
 * Runs a program with a time limit, answering its output and exit: killed with its children
 * (its own process group) past the limit, and answered at once when it cannot start at all
 * (ENOENT: `exit` is null and `error` says why) instead of waiting for an exit that never comes.
 */
export function runBounded(
  command: string,
  args: string[],
  seconds: number,
): Promise<{ output: string; exit: number | null; seconds: number; error: NodeJS.ErrnoException | null }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let settled = false;
    const done = (exit: number | null, error: NodeJS.ErrnoException | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ output, exit, seconds: (Date.now() - started) / 1000, error });
    };
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, seconds * 1000);
    child.on('error', (error) => done(null, error));
    child.on('exit', (exit) => done(exit, null));
  });
}
