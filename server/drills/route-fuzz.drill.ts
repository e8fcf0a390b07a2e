import { describeRouteFuzz } from '../test/fuzz/route-fuzz-suite';

// The route fuzz of route-fuzz.test.ts with more requests per route and a new seed each run, so
// that every drill explores values the fixed seed of `pnpm test` never sends. The seed is printed
// with the figures; FUZZ_SEED=<seed> replays a run, FUZZ_RUNS changes its size.
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const runs = Number(process.env.FUZZ_RUNS ?? 40);

describeRouteFuzz(`every route of the table under ${runs} generated and hostile requests (seed ${seed})`, { runs, seed });
