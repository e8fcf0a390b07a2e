import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const autocannonModule = createRequire(import.meta.url).resolve('autocannon');

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

/**
 * Each header set once (a request per signed-in investor, say), from autocannon in a separate
 * process with `connections` at a time: the latencies of requests that no cache has seen.
 */
export async function loadEach(
  url: string,
  headerSets: Record<string, string>[],
  options: { connections: number },
): Promise<LoadResult & { requests: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-load-'));
  try {
    const file = path.join(dir, 'requests.json');
    writeFileSync(file, JSON.stringify(headerSets));
    const script = `
      const autocannon = require(${JSON.stringify(autocannonModule)});
      const sets = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'));
      let next = 0;
      autocannon({
        url: ${JSON.stringify(url)},
        connections: ${options.connections},
        amount: sets.length,
        requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...sets[next++ % sets.length] } }) }],
      }, (error, result) => {
        if (error) throw error;
        process.stdout.write(JSON.stringify(result));
      });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { maxBuffer: 10 * 1024 * 1024 });
    const result = JSON.parse(stdout) as {
      non2xx: number;
      errors: number;
      requests: { average: number; total: number };
      latency: { p50: number; p99: number; max: number };
    };
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return { requestsPerSecond: result.requests.average, requests: result.requests.total, latency: result.latency };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface WrkResult {
  requestsPerSecond: number;
  requests: number;
}

/**
 * Closed-loop load from `wrk -t1 -c<connections>` (the Debian package), a C load generator that
 * costs the machine far less per request than autocannon, so that the server is what is measured.
 * A non-2xx answer or a socket error makes the figure meaningless and throws.
 */
export async function wrk(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<WrkResult> {
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const { stdout } = await promisify(execFile)('wrk', ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, ...headerArgs, url]);
  // A timeout only says that an answer took over wrk's 2 s under a burst of the machine's other work.
  const failures = /Non-2xx or 3xx responses: \d+|Socket errors: connect \d+, read \d+, write \d+/.exec(stdout);
  if (failures && !/connect 0, read 0, write 0$/.test(failures[0])) throw new Error(`${url}: ${failures[0]}`);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const requests = /(\d+) requests in/.exec(stdout);
  if (!rate?.[1] || !requests?.[1]) throw new Error(`wrk printed no rate: ${stdout}`);
  return { requestsPerSecond: Number(rate[1]), requests: Number(requests[1]) };
}
