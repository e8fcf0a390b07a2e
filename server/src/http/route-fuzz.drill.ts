import { afterAll, beforeAll, describe, it } from 'vitest';
import { startGeocoderStub, type GeocoderStub } from '../../test/geocoder-stub';
import { startTestServer, type TestServer } from '../../test/harness';
import { figuresTable, fuzzOrder, fuzzRoute, type RouteFigures } from '../../test/fuzz/route-fuzz';

// The route fuzz of route-fuzz.test.ts with more requests per route and a new seed each run, so
// that every drill explores values the fixed seed of `pnpm test` never sends. The seed is printed
// with the figures; FUZZ_SEED=<seed> replays a run, FUZZ_RUNS changes its size.
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const runs = Number(process.env.FUZZ_RUNS ?? 40);

describe(`every route of the table under ${runs} generated and hostile requests (seed ${seed})`, () => {
  let server: TestServer;
  let geocoder: GeocoderStub;
  const figures: RouteFigures[] = [];
  const started = Date.now();

  beforeAll(async () => {
    geocoder = await startGeocoderStub();
    server = await startTestServer({ seed: true, env: { GEOCODER_URL: geocoder.url } });
  });
  afterAll(async () => {
    console.log(figuresTable(figures, seed, Date.now() - started));
    await server?.close();
    await geocoder?.close();
  });

  for (const name of fuzzOrder()) {
    it(`${name}: never answers 5xx, refuses with a sentence, answers the contract's shape`, async () => {
      figures.push(await fuzzRoute(server, name, { runs, seed }));
    });
  }
});
