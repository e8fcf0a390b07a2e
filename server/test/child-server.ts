import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/db/embedded';

export const serverDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * The product as an operator starts it, `cli.js start` (compiled) or `src/cli.ts start` (tsx), in
 * a process of its own that a test signals; everything it writes is kept in `output`.
 */
export class ChildServer {
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly process: ChildProcess,
    readonly url: string,
    readonly port: number,
  ) {
    this.exited = new Promise((resolve) => process.once('exit', (code, signal) => resolve({ code, signal })));
    const keep = (chunk: Buffer) => {
      this.output += chunk.toString();
    };
    process.stdout?.on('data', keep);
    process.stderr?.on('data', keep);
  }

  /** Starts the server and waits for its 'is running at' line; `compiled` is a built cli.js. */
  static async start(env: Record<string, string>, compiled?: string, port?: number): Promise<ChildServer> {
    const listenPort = port ?? (await freePort());
    const args = compiled ? ['--enable-source-maps', compiled, 'start'] : ['--import', 'tsx', path.join('src', 'cli.ts'), 'start'];
    const child = spawn(process.execPath, args, {
      cwd: serverDir,
      // REQUIRE_SECOND_STEP=none: the tests sign in as the demo administrator, as the harness's do.
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(listenPort), LOG_LEVEL: 'info', REQUIRE_SECOND_STEP: 'none', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ChildServer(child, `http://127.0.0.1:${listenPort}`, listenPort);
    await new Promise<void>((resolve, reject) => {
      const look = () => {
        if (server.output.includes('is running at')) resolve();
      };
      child.stdout?.on('data', look);
      child.stderr?.on('data', look);
      void server.exited.then(({ code }) => reject(new Error(`the server stopped (${code}) before it was running:\n${server.output}`)));
    });
    return server;
  }

  /** The JSON lines it logged (anything else it wrote is left out). */
  lines(): Record<string, unknown>[] {
    return this.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** SIGKILL: no handler runs, nothing is closed or cleaned up, as when the machine loses power. */
  async kill(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM, then waits for the process to end; answers its exit. */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGTERM');
    return this.exited;
  }
}
