import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { BenchServer } from './bench-server';
import { load } from './load';

const seconds = 5;
const rounds = 3;
const connections = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * GET /api/properties of the product against a bare Koa server answering the same JSON from
 * memory, in the same run. Goal: the product reaches at least 0.8 of the bare server.
 */
export async function benchPropertyList(server: BenchServer): Promise<void> {
  const body = await (await fetch(`${server.url}/api/properties`)).text();
  const bare = new Koa();
  bare.use((ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => bareServer.once('listening', () => resolve()));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/api/properties`;

  try {
    await load(`${server.url}/api/properties`, { connections, seconds }); // warm-up
    // Alternate the two and keep the median of each, so a burst of other work on the machine
    // does not decide the ratio.
    const productRuns: number[] = [];
    const baselineRuns: number[] = [];
    for (let i = 0; i < rounds; i++) {
      productRuns.push((await load(`${server.url}/api/properties`, { connections, seconds })).requestsPerSecond);
      baselineRuns.push((await load(bareUrl, { connections, seconds })).requestsPerSecond);
    }
    const product = median(productRuns);
    const baseline = median(baselineRuns);
    const ratio = product / baseline;
    console.log(`GET /api/properties (${body.length} bytes, ${connections} connections, median of ${rounds} × ${seconds} s)`);
    console.log(`  product:   ${product.toFixed(0)} requests/s`);
    console.log(`  bare Koa:  ${baseline.toFixed(0)} requests/s`);
    console.log(`  ratio:     ${ratio.toFixed(2)} (goal >= 0.80: ${ratio >= 0.8 ? 'met' : 'NOT met'})`);
  } finally {
    bareServer.close();
  }
}
