import { afterAll, beforeAll, describe, it } from 'vitest';
import { startGeocoderStub, type GeocoderStub } from '../geocoder-stub';
import { startTestServer, type TestServer } from '../harness';
import { callerIdsOf, figuresTable, fuzzOrder, fuzzRoute, type RouteFigures } from './route-fuzz';

/**
 * One test per fuzzed route, in fuzzOrder, against one seeded server (route-fuzz.test.ts with a
 * few requests per route, route-fuzz.drill.ts with many); the figures are printed at the end.
 * `more` adds tests of the suite's own (run first).
 */
export function describeRouteFuzz(title: string, options: { runs: number; seed: number }, more?: () => void): void {
  describe(title, () => {
    let server: TestServer;
    let geocoder: GeocoderStub;
    let callerIds: Map<string, number>;
    const figures: RouteFigures[] = [];
    const started = Date.now();

    beforeAll(async () => {
      geocoder = await startGeocoderStub();
      server = await startTestServer({ seed: true, env: { GEOCODER_URL: geocoder.url } });
      callerIds = await callerIdsOf(server);
    });
    afterAll(async () => {
      console.log(figuresTable(figures, options.seed, Date.now() - started));
      await server?.close();
      await geocoder?.close();
    });

    more?.();
    for (const name of fuzzOrder()) {
      it(`${name}: never answers 5xx, refuses with a sentence, answers the contract's shape`, async () => {
        figures.push(await fuzzRoute(server, name, { ...options, callerIds }));
      });
    }
  });
}
