import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface LoadResult {
  requestsPerSecond: number;
  latency: { p50: number; p99: number; max: number };
}

/**
 * Closed-loop load from autocannon in a separate process, so that it does not share the
 * servers' event loop. Any non-2xx answer or error makes the figure meaningless and throws.
 */
export async function load(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [autocannonCli, '--json', '-c', String(options.connections), '-d', String(options.seconds), ...headerArgs, url],
    { maxBuffer: 10 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as {
    non2xx: number;
    errors: number;
    requests: { average: number };
    latency: { p50: number; p99: number; max: number };
  };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, latency: result.latency };
}
