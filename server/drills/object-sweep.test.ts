import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweep, sweepSecondStepMissing, sweepUser, sweptUsers, type Sweep } from './object-sweep';

/**
 * Issue 22's object-level sweep: each demo investor and employee asks for every document id in
 * the database, and for ids that do not exist, through the list, the preview, the download and
 * the document link. `pnpm drill` prints its figures (object-sweep.drill.ts).
 */
describe('every document id, as every demo investor and employee', () => {
  let sweep: Sweep;
  beforeAll(async () => {
    sweep = await buildSweep();
  });
  afterAll(async () => {
    await sweep?.server.close();
  });

  it('sweeps both kinds of documents, for investors and an employee', () => {
    expect(sweep.documents.property.length).toBeGreaterThan(0);
    expect(sweep.documents.user.length).toBeGreaterThan(0);
    expect(sweep.versionIds.length).toBeGreaterThan(0);
    expect(new Set(sweptUsers.map((user) => user.role))).toEqual(new Set(['user', 'everest_employee']));
  });

  // All of them at once: each user's calls wait on the database and the files, not on each other.
  it('lets each of them read exactly what the policy allows, and answers "not yours" as "does not exist"', async () => {
    const figures = await Promise.all(sweptUsers.map((user) => sweepUser(sweep, user.email)));
    expect(figures.map((f) => ({ email: f.email, mismatches: f.mismatches }))).toEqual(sweptUsers.map((user) => ({ email: user.email, mismatches: [] })));
    for (const f of figures) {
      expect(f.allowed, f.email).toBeGreaterThan(0);
      expect(f.refused, f.email).toBeGreaterThan(0);
    }
  }, 120_000);

  // Issue 36: each kind of delegate, on its own and through its share, every id.
  it('lets each delegate read exactly what its share covers now, on behalf of its investor, and nothing of its own unless an investor', async () => {
    expect(sweep.delegates.map((d) => d.kind).sort()).toEqual(['deact', 'expired', 'inv', 'revoked', 'tax']);
    // The investor who is also a delegate was swept on their own above, with the shares in place
    // (buildSweep makes them first); a second own sweep would find their reads already counted.
    const own = await Promise.all(sweep.delegates.filter((d) => !d.investor).map((d) => sweepUser(sweep, d.email)));
    const shared = await Promise.all(sweep.delegates.map((d) => sweepUser(sweep, d.email, d)));
    expect([...own, ...shared].flatMap((f) => f.mismatches)).toEqual([]);
    // Delegate-only accounts read nothing of their own, not even General.
    expect(own.map((f) => f.allowed)).toEqual(own.map(() => 0));
    const allowed = Object.fromEntries(sweep.delegates.map((d, i) => [d.kind, shared[i]?.allowed]));
    expect(allowed).toEqual({ tax: expect.any(Number), inv: expect.any(Number), expired: 0, revoked: 0, deact: 0 });
    expect(allowed.tax).toBeGreaterThan(0);
    expect(allowed.inv).toBeGreaterThan(allowed.tax ?? 0);
  }, 180_000);

  // Issue 33, gap 1: every personal document by id, with an administrator's password alone.
  it('refuses every document id to an administrator whose role needs a second step not yet set up', async () => {
    const result = await sweepSecondStepMissing(sweep);
    expect(result.mismatches).toEqual([]);
    expect(result.calls).toBeGreaterThan(5 * (sweep.documents.property.length + sweep.documents.user.length));
  });
});
