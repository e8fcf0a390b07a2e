import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The answer as it travels, not decoded (fetch would undo its compression). */
function raw(url: string, method: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function decoded(answer: RawAnswer): unknown {
  const encoding = answer.headers['content-encoding'];
  const bytes = encoding === 'br' ? brotliDecompressSync(answer.body) : encoding === 'gzip' ? gunzipSync(answer.body) : answer.body;
  return JSON.parse(bytes.toString('utf8'));
}

const securityHeaderNames = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'permissions-policy',
];

describe('GET /api/properties, the busiest public call', () => {
  let server: TestServer;
  let list: unknown;
  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    list = await (await server.api('/api/properties')).json();
  });
  afterAll(() => server.close());

  it('answers each Accept-Encoding in the encoding it asks for, with the security headers of every call, Vary and a request id', async () => {
    const health = await raw(`${server.url}/api/health`, 'GET', {});
    const cases = [
      { acceptEncoding: 'gzip, deflate, br, zstd', encoding: 'br' },
      { acceptEncoding: 'gzip', encoding: 'gzip' },
      { acceptEncoding: 'br;q=0.1, gzip;q=0.9', encoding: 'gzip' },
      { acceptEncoding: undefined, encoding: undefined },
    ];
    for (const { acceptEncoding, encoding } of cases) {
      // Twice: the first may load the list, the second is answered from memory.
      for (let i = 0; i < 2; i++) {
        const answer = await raw(`${server.url}/api/properties`, 'GET', acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding'], acceptEncoding).toBe(encoding);
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(answer.headers.vary).toBe('Accept-Encoding');
        expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
        expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        for (const name of securityHeaderNames) expect(answer.headers[name], name).toBe(health.headers[name]);
        expect(decoded(answer)).toEqual(list);
      }
    }
  });

  it('keeps a caller’s plain request id', async () => {
    const answer = await raw(`${server.url}/api/properties`, 'GET', { 'x-request-id': 'lb-17.b' });
    expect(answer.headers['x-request-id']).toBe('lb-17.b');
  });

  it('answers a signed-in caller and a stale token the same list, through the session check', async () => {
    const login = await server.api('/api/investor/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'investor@example.com', password: demoPassword }),
    });
    const { token } = (await login.json()) as { token: string };
    for (const authorization of [`Bearer ${token}`, 'Bearer not.a.token']) {
      const answer = await raw(`${server.url}/api/properties`, 'GET', { authorization, 'accept-encoding': 'gzip' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(decoded(answer)).toEqual(list);
    }
  });

  it('is found by its exact path, and leaves HEAD, a trailing slash and other letter cases to the router as before', async () => {
    const head = await raw(`${server.url}/api/properties`, 'HEAD', { 'accept-encoding': 'gzip' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const path of ['/api/properties/', '/api/Properties', '/api/properties?page=2']) {
      const answer = await raw(`${server.url}${path}`, 'GET', {});
      expect(answer.status, path).toBe(200);
      expect(decoded(answer), path).toEqual(list);
    }
    // Other parameterless GETs are found by their exact path too, and a path of none is still a 404.
    expect((await server.api('/api/health')).status).toBe(200);
    expect((await server.api('/api/health/ready')).status).toBe(200);
    expect((await server.api('/api/propertiesx')).status).toBe(404);
  });
});
