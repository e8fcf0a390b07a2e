import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import Koa from 'koa';
import type { BenchServer } from './bench-server';
import { wrk } from './load';

const seconds = 3;
const rounds = 5;
const connections = 32;

/** What a browser sends (Chromium, Firefox), and what an API client such as curl or wrk sends. */
const acceptEncodings = { browser: 'gzip, deflate, br, zstd', none: undefined } as const;

/** Headers of the connection and the moment, not of the answer: Node writes its own. */
const connectionHeaders = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface RawAnswer {
  headers: Record<string, string>;
  body: Buffer;
}

/** The product's answer as it travels, not decoded (fetch would undo its compression). */
function rawAnswer(url: string, acceptEncoding: string | undefined): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (!connectionHeaders.has(name) && typeof value === 'string') kept[name] = value;
        }
        resolve({ headers: kept, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? (sorted[Math.floor(middle)] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * GET /api/properties of the product against a bare Koa server answering the very same bytes and
 * headers (security headers, request id, Vary, Content-Encoding: what the product answered for
 * that Accept-Encoding), from memory, in the same process and the same run. The product runs as
 * deployed: request lines logged at `info` (to /dev/null here, see bench-server.ts). Load from
 * `wrk -t1 -c32`. Goal: the product reaches at least 0.8 of the bare server.
 *
 * The two are measured in turn, in short runs whose order alternates (product first, then bare
 * first), and each round's ratio is taken from its own pair: on a machine shared with other work
 * a burst weighs on one pair, not on the whole figure.
 */
export async function benchPropertyList(server: BenchServer): Promise<void> {
  const productUrl = `${server.url}/api/properties`;
  const answers = new Map<string, RawAnswer>();
  for (const encoding of Object.values(acceptEncodings)) answers.set(encoding ?? '', await rawAnswer(productUrl, encoding));

  const bare = new Koa();
  bare.use((ctx) => {
    const answer = answers.get(ctx.get('accept-encoding'));
    if (!answer) throw new Error(`no answer recorded for Accept-Encoding ${ctx.get('accept-encoding')}`);
    ctx.set(answer.headers);
    ctx.body = answer.body;
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => bareServer.once('listening', () => resolve()));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/api/properties`;

  try {
    console.log(`GET /api/properties: product vs bare Koa, wrk -t1 -c${connections}, ${rounds} rounds × ${seconds} s each, load ${os.loadavg()[0]?.toFixed(1)}`);
    for (const [client, encoding] of Object.entries(acceptEncodings)) {
      const headers = encoding === undefined ? undefined : { 'accept-encoding': encoding };
      const options = { connections, seconds, headers };
      const answer = answers.get(encoding ?? '');
      // Warm-up of both: on a busy machine the first seconds still run code the JIT has not optimised.
      await wrk(productUrl, { ...options, seconds: 4 });
      await wrk(bareUrl, { ...options, seconds: 2 });
      const ratios: number[] = [];
      const cpuRatios: number[] = [];
      const lines: string[] = [];
      // This process's CPU time per request (both servers run here, one at a time): unlike the
      // rate, it hardly moves when other work on the machine takes the CPU away.
      const measure = async (url: string) => {
        const before = process.cpuUsage();
        const result = await wrk(url, options);
        const cpu = process.cpuUsage(before);
        return { rate: result.requestsPerSecond, cpuPerRequest: (cpu.user + cpu.system) / result.requests };
      };
      for (let round = 0; round < rounds; round++) {
        const productFirst = round % 2 === 0;
        const first = await measure(productFirst ? productUrl : bareUrl);
        const second = await measure(productFirst ? bareUrl : productUrl);
        const [product, baseline] = productFirst ? [first, second] : [second, first];
        ratios.push(product.rate / baseline.rate);
        cpuRatios.push(baseline.cpuPerRequest / product.cpuPerRequest);
        lines.push(
          `${product.rate.toFixed(0)}/${baseline.rate.toFixed(0)}=${(product.rate / baseline.rate).toFixed(2)}` +
            ` (${product.cpuPerRequest.toFixed(0)}/${baseline.cpuPerRequest.toFixed(0)} µs)`,
        );
      }
      const ratio = median(ratios);
      console.log(
        `  ${client} (Accept-Encoding: ${encoding ?? 'none'}; ${answer?.headers['content-encoding'] ?? 'identity'}, ${answer?.body.length} bytes)`,
      );
      console.log(`    rounds, product/bare requests/s (CPU µs per request): ${lines.join('  ')}`);
      console.log(`    ratio, median of rounds: ${ratio.toFixed(2)} (goal >= 0.80: ${ratio >= 0.8 ? 'met' : 'NOT met'}), load ${os.loadavg()[0]?.toFixed(1)}`);
      console.log(`    CPU per request, bare/product, median of rounds: ${median(cpuRatios).toFixed(2)}`);
    }
  } finally {
    bareServer.close();
  }
}
