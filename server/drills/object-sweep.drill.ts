import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweep, formatSweep, sweepSecondStepMissing, sweepUser, sweptUsers, type Sweep } from './object-sweep';

// `pnpm drill`: the object-level sweep with its figures (the same checks as
// object-sweep.test.ts makes in `pnpm test`).
describe('object-level sweep drill', () => {
  let sweep: Sweep;
  beforeAll(async () => {
    sweep = await buildSweep();
  });
  afterAll(async () => {
    await sweep?.server.close();
  });

  it('prints, per demo investor, employee and kind of delegate, what opened and what answered as missing', async () => {
    const started = performance.now();
    const people = await Promise.all(sweptUsers.map((user) => sweepUser(sweep, user.email)));
    // Each kind of delegate on its own (the investor-delegate was swept above) and
    // through its share, shown as 'delegate → investor'.
    const own = await Promise.all(sweep.delegates.filter((d) => !d.investor).map((d) => sweepUser(sweep, d.email)));
    const shared = await Promise.all(
      sweep.delegates.map(async (d) => ({ ...(await sweepUser(sweep, d.email, d)), email: `${d.kind} → #${d.ownerId}`, role: 'on behalf' })),
    );
    const figures = [...people, ...own, ...shared];
    const secondStep = await sweepSecondStepMissing(sweep);
    console.log(`\nObject-level sweep\n${formatSweep(sweep, figures, Math.round(performance.now() - started), secondStep)}\n`);
    for (const f of figures) for (const wrong of f.mismatches.slice(0, 5)) console.log(`  ${f.email}: ${wrong}`);
    for (const wrong of secondStep.mismatches.slice(0, 5)) console.log(`  administrator without a second step: ${wrong}`);
    expect(figures.flatMap((f) => f.mismatches)).toEqual([]);
    expect(secondStep.mismatches).toEqual([]);
  });
});
