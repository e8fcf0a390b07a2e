import { expect, it } from 'vitest';
import { routes } from '@everest/core/contract';
import { fileFields, fuzzOrder, notFuzzed, type RouteName } from '../../test/fuzz/route-fuzz';
import { describeRouteFuzz } from '../../test/fuzz/route-fuzz-suite';

// A few generated requests per route on every `pnpm test` (route-fuzz.drill.ts sends many more).
// The seed is fixed so that a failure replays; FUZZ_SEED tries another.
const seed = Number(process.env.FUZZ_SEED ?? 22);

describeRouteFuzz('every route of the table under generated and hostile input', { runs: 8, seed }, () => {
  it('fuzzes every route but those left out with a reason, and knows the file field of every multipart route', () => {
    const names = Object.keys(routes) as RouteName[];
    expect(fuzzOrder().length + Object.keys(notFuzzed).length).toBe(names.length);
    const multipart = names.filter((name) => 'multipart' in routes[name]);
    expect(multipart.filter((name) => !fileFields[name])).toEqual([]);
  });
});
