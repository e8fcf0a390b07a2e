import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { geocodeAnswer } from '@everest/core/contract';
import { cannedAnswer, startGeocoderStub, type GeocoderStub, type StubAnswer } from '../../../test/geocoder-stub';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { Geocoder } from './geocoder';

/** The stub's canned answers, plus a slow service and a broken one. */
function answers(q: string): StubAnswer {
  if (q.includes('Slow')) return { ...cannedAnswer(q), delayMs: 3000 };
  if (q.includes('Broken')) return { status: 500, body: { error: 'internal' } };
  if (q.includes('Garbled')) return { body: { results: 'not a list' } };
  return cannedAnswer(q);
}

describe('GET /api/admin/geocode', () => {
  let stub: GeocoderStub;
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let token: string;

  beforeAll(async () => {
    stub = await startGeocoderStub(answers);
    server = await startTestServer({ seed: true, env: { GEOCODER_URL: stub.url } });
    client = recordingClient(server);
    token = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    await server.close();
    await stub.close();
  });

  const geocode = (q: string) => client.call(`/api/admin/geocode?q=${encodeURIComponent(q)}`, { token });

  it('answers the first result to 6 decimals, asking as Nominatim expects with a User-Agent of its own', async () => {
    const res = await geocode('1 Main St, Pasadena, CA 91101');
    expect(res.status, res.text).toBe(200);
    expect(geocodeAnswer.parse(res.json)).toEqual({ latitude: '34.147785', longitude: '-118.144516' });
    const search = stub.searches.at(-1);
    expect(search).toMatchObject({ q: '1 Main St, Pasadena, CA 91101', format: 'json', limit: '1' });
    expect(search?.userAgent).toMatch(/^EverestProperties-Admin\/1\.0 \(\+http.*; info@example\.com\)$/);
  });

  it("answers 404 'Address Not Found' when the geocoder finds nothing", async () => {
    const res = await geocode('Not Found Lane, Nowhere, ZZ');
    expect(res.status, res.text).toBe(404);
    expect(res.json).toEqual({ error: expect.stringMatching(/^Address Not Found: /) });
  });

  it("answers 502 'Geocoding Failed' when the geocoder answers with an error or nonsense", async () => {
    for (const q of ['Broken Rd, Pasadena, CA', 'Garbled Ave, Pasadena, CA']) {
      const res = await geocode(q);
      expect(res.status, res.text).toBe(502);
      expect(res.json).toEqual({ error: expect.stringMatching(/^Geocoding Failed: /) });
    }
  });

  it('refuses an empty address with a sentence', async () => {
    const res = await geocode('   ');
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 'Please enter the address, city and state.' });
  });

  it('asks the geocoder at most once a second, however fast the clicks come', async () => {
    // Stamped as each search leaves this server: arrival times at the stub would add the
    // machine's scheduling delays, which can bring two searches closer than they were sent.
    const departures: number[] = [];
    const send = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      if (String(input instanceof Request ? input.url : input).startsWith(stub.url)) departures.push(Date.now());
      return send(input, init);
    });
    try {
      const results = await Promise.all(['1 A St, Pasadena, CA', '2 B St, Pasadena, CA', '3 C St, Pasadena, CA'].map(geocode));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    } finally {
      spy.mockRestore();
    }
    expect(departures).toHaveLength(3);
    for (let i = 1; i < departures.length; i += 1) {
      // A timer may wake a millisecond before the clock says its time has come.
      expect((departures[i] ?? 0) - (departures[i - 1] ?? 0)).toBeGreaterThanOrEqual(998);
    }
  });
});

describe('the geocoder when the service is slow or gone', () => {
  let stub: GeocoderStub;
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let token: string;

  beforeAll(async () => {
    stub = await startGeocoderStub(answers);
    // A short timeout and no spacing, so that the slow cases take a moment, not seconds.
    const geocoder = new Geocoder({ url: stub.url, userAgent: 'test', timeoutMs: 300, minIntervalMs: 0 });
    server = await startTestServer({ seed: true, overrides: { geocoder } });
    client = recordingClient(server);
    token = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    await server.close();
    await stub.close();
  });

  it("answers 504 'Geocoding Failed' when the geocoder does not answer in time", async () => {
    const started = Date.now();
    const res = await client.call(`/api/admin/geocode?q=${encodeURIComponent('Slow St, Pasadena, CA')}`, { token });
    expect(res.status, res.text).toBe(504);
    expect(res.json).toEqual({ error: expect.stringMatching(/^Geocoding Failed: .*did not answer within 0\.3 seconds/) });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("answers 502 'Geocoding Failed' when the geocoder cannot be reached", async () => {
    const gone = await startGeocoderStub(answers);
    await gone.close();
    const geocoder = new Geocoder({ url: gone.url, userAgent: 'test', timeoutMs: 1000, minIntervalMs: 0 });
    await expect(geocoder.search('1 Main St')).rejects.toMatchObject({ status: 502, message: expect.stringMatching(/could not be reached/) });
  });

  it('refuses at once (503) a search that would wait in line too long, rather than pile searches up', async () => {
    const geocoder = new Geocoder({ url: stub.url, userAgent: 'test', minIntervalMs: 60_000, maxWaitMs: 1000 });
    await expect(geocoder.search('1 Main St')).resolves.toEqual({ latitude: '34.147785', longitude: '-118.144516' });
    await expect(geocoder.search('2 Main St')).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': expect.any(String) } });
  });
});
