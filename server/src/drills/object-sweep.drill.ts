import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweep, formatSweep, sweepUser, sweptUsers, type Sweep } from './object-sweep';

// `pnpm drill`: the object-level sweep of issue 22 with its figures (the same checks as
// object-sweep.test.ts makes in `pnpm test`).
describe('object-level sweep drill', () => {
  let sweep: Sweep;
  beforeAll(async () => {
    sweep = await buildSweep();
  });
  afterAll(async () => {
    await sweep?.server.close();
  });

  it('prints, per demo investor and employee, what opened and what answered as missing', async () => {
    const started = performance.now();
    const figures = await Promise.all(sweptUsers.map((user) => sweepUser(sweep, user.email)));
    console.log(`\nObject-level sweep\n${formatSweep(sweep, figures, Math.round(performance.now() - started))}\n`);
    for (const f of figures) for (const wrong of f.mismatches.slice(0, 5)) console.log(`  ${f.email}: ${wrong}`);
    expect(figures.flatMap((f) => f.mismatches)).toEqual([]);
  });
});
