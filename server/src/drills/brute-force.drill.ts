import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness';
import { formatProbes, probeAll, startBruteForceServer } from './brute-force';

// `pnpm drill`: attempts before 429 for every guessing or flooding endpoint (issue 22);
// brute-force.test.ts asserts the same limits in `pnpm test`.
describe('brute force drill', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startBruteForceServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('prints attempts before 429, per account and per address, for each endpoint', async () => {
    const started = performance.now();
    const probes = await probeAll(server);
    console.log(`\nBrute force\n${formatProbes(probes, Math.round(performance.now() - started))}\n`);
    expect(probes.filter((p) => p.before429 === null)).toEqual([]);
  });
});
