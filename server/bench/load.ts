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

export interface RateResult {
  /** Answered 200. */
  requests: number;
  /** Errors and other statuses (counted as slower than any answer in the percentiles), and the first few of them. */
  failures: number;
  failed: string[];
  /** Answers a second, from the first request's planned start to the last answer's end. */
  requestsPerSecond: number;
  /** From each request's planned start, not from when it was sent: a late send counts against the server. */
  latency: { p50: number; p99: number; max: number };
  /** The load generator's own CPU-seconds (user and system): it shares the host with the server. */
  generatorCpuSeconds: number;
}

/**
 * Open-loop load: each header set once, the n-th request planned at n / perSecond seconds and
 * sent then, on keep-alive connections opened as needed (at most 100: a request planned while all
 * are busy waits for one, and that wait counts in its latency), whatever the answers before it,
 * from a separate process. autocannon's `overallRate` is not this: each connection sends its share of
 * a second's quota back to back at the second's start, then waits, which makes bursts of the
 * whole quota rather than a steady arrival. Latencies run from the planned start, so that a
 * server that falls behind is not hidden by requests waiting in the generator (coordinated
 * omission).
 */
export async function loadAtRate(url: string, headerSets: Record<string, string>[], options: { perSecond: number }): Promise<RateResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-load-'));
  try {
    const file = path.join(dir, 'requests.json');
    writeFileSync(file, JSON.stringify(headerSets));
    const script = `
      const http = require('node:http');
      const sets = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'));
      const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
      const interval = 1000 / ${options.perSecond};
      const start = performance.now() + 50;
      const latencies = [];
      let next = 0, failures = [], lastEnd = start;
      const finish = () => {
        if (latencies.length + failures.length < sets.length) return;
        agent.destroy();
        latencies.sort((a, b) => a - b);
        // A failed request counts as slower than any answer.
        const at = (q) => { const i = Math.ceil(q * sets.length) - 1; return i < latencies.length ? latencies[i] : null; };
        const cpu = process.cpuUsage();
        process.stdout.write(JSON.stringify({ failures: failures.length, failed: failures.slice(0, 3), requests: latencies.length, seconds: (lastEnd - start) / 1000,
          p50: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1], cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
      };
      const send = (i, planned = start + i * interval) => {
        const req = http.get(${JSON.stringify(url)}, { agent, headers: sets[i] }, (res) => {
          res.resume();
          res.on('end', () => {
            lastEnd = performance.now();
            if (res.statusCode === 200) latencies.push(lastEnd - planned);
            else failures.push('status ' + res.statusCode);
            finish();
          });
        });
        // A kept-alive connection the server closed as it was reused: Node's documented case for
        // sending again (req.reusedSocket), still timed from the planned start.
        req.on('error', (error) => {
          if (req.reusedSocket && error.code === 'ECONNRESET') return send(i, planned);
          failures.push(error.message);
          finish();
        });
      };
      const tick = () => {
        while (next < sets.length && start + next * interval <= performance.now()) send(next++);
        if (next < sets.length) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
      };
      setTimeout(tick, 50);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { maxBuffer: 10 * 1024 * 1024 });
    const result = JSON.parse(stdout) as {
      failures: number;
      failed: string[];
      requests: number;
      seconds: number;
      p50: number | null;
      p99: number | null;
      max: number;
      cpuSeconds: number;
    };
    const ms = (value: number | null) => (value === null ? Infinity : Math.round(value * 10) / 10);
    return {
      requests: result.requests,
      failures: result.failures,
      failed: result.failed,
      requestsPerSecond: result.requests / result.seconds,
      latency: { p50: ms(result.p50), p99: ms(result.p99), max: ms(result.max) },
      generatorCpuSeconds: result.cpuSeconds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
