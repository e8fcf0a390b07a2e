import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/db/embedded';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/** The product as an operator starts it (`cli.ts start`), in a process of its own that can be killed. */
export class ChildServer {
  private constructor(
    readonly process: ChildProcess,
    readonly url: string,
  ) {}

  static async start(env: Record<string, string>): Promise<ChildServer> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('is running at')) resolve();
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('exit', (code) => reject(new Error(`the server stopped (${code}) before it was running:\n${output}`)));
    });
    return new ChildServer(child, `http://127.0.0.1:${port}`);
  }

  /** SIGKILL: no handler runs, nothing is closed or cleaned up, as when the machine loses power. */
  async kill(): Promise<void> {
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.process.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.process.kill('SIGTERM');
    await exited;
  }
}
