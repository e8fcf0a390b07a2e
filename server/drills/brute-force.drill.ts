import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../test/harness';
import { formatProbes, probeAddressRefill, probeAll, probeAttackers, probeOwner, startBruteForceServer } from './brute-force';

// `pnpm drill`: attempts before 429 for every guessing or flooding endpoint, and what
// the owner of a guessed account meets; brute-force.test.ts asserts the same in `pnpm test`.
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
    const owner = await probeOwner(server);
    const refill = await probeAddressRefill(server);
    const attackers = await probeAttackers(server);
    console.log(`\nBrute force\n${formatProbes(probes, Math.round(performance.now() - started), [...owner, ...refill, ...attackers])}\n`);
    expect(probes.filter((p) => p.before429 === null)).toEqual([]);
    // Strangers cannot keep the owner out, and an address's budget grows back.
    expect(owner.find((c) => c.case === 'right password, fresh address, with the check')?.status).toBe(200);
    expect(owner.find((c) => c.case === "a stranger's 10 wrong from one address, then the owner from another, with the check")?.status).toBe(200);
    expect(refill.map((c) => c.status)).toEqual([429, 401, 429]);
    // The guess ceiling: 100 passwords an hour, then nothing learned; the owner gets in with the e-mailed code.
    expect(attackers.find((c) => c.case === 'the owner: the password and the e-mailed code')?.status).toBe(200);
    expect(attackers.find((c) => c.case === 'the owner: password, e-mailed code, right code')?.status).toBe(200);
  });
});
