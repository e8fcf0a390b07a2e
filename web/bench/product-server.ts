import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ProductServer {
  url: string;
  /** Milliseconds from the command to the first answer of /api/health. */
  readyAfterMs: number;
  /** Stops the server and everything below it (PostgreSQL too); `keepData` keeps its data folder. */
  stop: (options?: { keepData?: boolean }) => Promise<void>;
}

/** A data folder under the OS temp dir, 755 so that the embedded PostgreSQL's OS user can reach it. */
export function newDataDir(): string {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-bench-'));
  chmodSync(dataDir, 0o755);
  return dataDir;
}

/**
 * The product as a person starts it: `pnpm <command>` from the repository (`start`, say, or
 * `--filter @everest/server start`), with its own free port and a data folder (a fresh one unless
 * given: the embedded PostgreSQL is created and seeded there on the first start). Resolves once
 * /api/health answers, with the time that took.
 */
export async function startProductServer(options: { command: string[]; env?: Record<string, string>; dataDir?: string }): Promise<ProductServer> {
  const dataDir = options.dataDir ?? newDataDir();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn('pnpm', options.command, {
    cwd: repoDir,
    env: { ...process.env, ...options.env, PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: url },
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its own process group, so that stopping it also stops tsx, node and PostgreSQL below it.
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const stop = async ({ keepData = false } = {}) => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    if (!keepData) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // A first start may build the web app (minutes with Zopfli) before it serves.
    await waitForHealth(url, child, 15 * 60_000);
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${stderr}`, { cause: error });
  }
  return { url, readyAfterMs: performance.now() - started, stop };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Asks every 100 ms: the restart's figure is read to a tenth of a second. */
async function waitForHealth(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server stopped with code ${server.exitCode} before it was ready.`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server did not answer ${url}/api/health within ${timeoutMs / 1000} s.`);
}
