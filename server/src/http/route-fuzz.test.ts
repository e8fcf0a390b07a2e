import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@everest/core/contract';
import { startGeocoderStub, type GeocoderStub } from '../../test/geocoder-stub';
import { startTestServer, type TestServer } from '../../test/harness';
import { fileFields, figuresTable, fuzzOrder, fuzzRoute, notFuzzed, type RouteFigures, type RouteName } from '../../test/fuzz/route-fuzz';

// A few generated requests per route on every `pnpm test` (route-fuzz.drill.ts sends many more).
// The seed is fixed so that a failure replays; FUZZ_SEED tries another.
const seed = Number(process.env.FUZZ_SEED ?? 22);
const runs = 8;

describe('every route of the table under generated and hostile input', () => {
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

  it('fuzzes every route but those left out with a reason, and knows the file field of every multipart route', () => {
    const names = Object.keys(routes) as RouteName[];
    expect(fuzzOrder().length + Object.keys(notFuzzed).length).toBe(names.length);
    const multipart = names.filter((name) => 'multipart' in routes[name]);
    expect(multipart.filter((name) => !fileFields[name])).toEqual([]);
  });

  for (const name of fuzzOrder()) {
    it(`${name}: never answers 5xx, refuses with a sentence, answers the contract's shape`, async () => {
      figures.push(await fuzzRoute(server, name, { runs, seed }));
    });
  }
});
