import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardApiRequest, forwardedUrl } from './api-forward';

const appOrigin = 'everest://app';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

// A real HTTP server standing for the portal: it records what arrives and answers with a cookie.
let server: Server;
let serverUrl: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString() });
      const status = request.url?.startsWith('/api/expired') ? 401 : 200;
      response.writeHead(status, { 'content-type': 'application/json', 'set-cookie': 'tracking=1', 'x-request-id': 'r1' });
      response.end(JSON.stringify({ ok: status === 200 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('which requests of the renderer are forwarded', () => {
  it('maps the API and the photos of the app origin to the server, path and query kept', () => {
    expect(forwardedUrl('everest://app/api/admin/users?page=2&search=a%20b', appOrigin, 'https://p.example.com')).toBe(
      'https://p.example.com/api/admin/users?page=2&search=a%20b',
    );
    expect(forwardedUrl('everest://app/media/p1-480.webp', appOrigin, 'https://p.example.com/')).toBe('https://p.example.com/media/p1-480.webp');
  });

  it.each([
    'everest://app/index.html',
    'everest://app/assets/index.js',
    'everest://app/apix/users',
    'everest://app/api/../index.html',
    'everest://other/api/admin/users',
    'https://p.example.com/api/admin/users',
    'not a url',
  ])('leaves %j alone', (url) => {
    expect(forwardedUrl(url, appOrigin, 'https://p.example.com')).toBeNull();
  });
});

describe('forwarding a request to the server', () => {
  it("adds the session's bearer token and passes on only the headers the API needs", async () => {
    const request = new Request('everest://app/api/admin/users?page=1', {
      headers: {
        accept: 'application/json',
        cookie: 'session=stolen',
        authorization: 'Bearer from-the-renderer',
        'idempotency-key': 'k1',
        'x-anything': 'else',
      },
    });
    const answer = await forwardApiRequest(request, { appOrigin, serverUrl, token: 'main-token' });
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toEqual({ ok: true });
    const last = seen.at(-1)!;
    expect(last.url).toBe('/api/admin/users?page=1');
    expect(last.headers.authorization).toBe('Bearer main-token');
    expect(last.headers['idempotency-key']).toBe('k1');
    expect(last.headers.cookie).toBeUndefined();
    expect(last.headers['x-anything']).toBeUndefined();
    // Cookies never reach the renderer; other headers do.
    expect(answer?.headers.get('set-cookie')).toBeNull();
    expect(answer?.headers.get('x-request-id')).toBe('r1');
  });

  it('sends no token when signed out, and never the one the renderer made up', async () => {
    await forwardApiRequest(new Request('everest://app/api/properties', { headers: { authorization: 'Bearer forged' } }), {
      appOrigin,
      serverUrl,
      token: null,
    });
    expect(seen.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('streams a body through with its method and content type', async () => {
    const form = new FormData();
    form.set('title', 'Q3 report');
    form.set('document', new File(['%PDF-1.4 body'], 'q3.pdf'));
    const request = new Request('everest://app/api/admin/upload-document', { method: 'POST', body: form });
    await forwardApiRequest(request, { appOrigin, serverUrl, token: 't' });
    const last = seen.at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(last.body).toContain('Q3 report');
    expect(last.body).toContain('%PDF-1.4 body');
  });

  it('tells the app when the server refuses the token, so it signs out', async () => {
    let told = 0;
    const answer = await forwardApiRequest(new Request('everest://app/api/expired'), {
      appOrigin,
      serverUrl,
      token: 'old',
      onUnauthorized: () => (told += 1),
    });
    expect(answer?.status).toBe(401);
    expect(told).toBe(1);
  });

  it('answers 502 with a sentence when the server is out of reach', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const answer = await forwardApiRequest(new Request('everest://app/api/properties'), {
      appOrigin,
      serverUrl: `http://127.0.0.1:${port}`,
      token: 't',
    });
    expect(answer?.status).toBe(502);
    expect(await answer?.json()).toEqual({ error: 'Could not reach the server. Please check your connection and try again.' });
  });

  it('answers null for a request that is not an API call, for the file handler', async () => {
    expect(await forwardApiRequest(new Request('everest://app/index.html'), { appOrigin, serverUrl, token: 't' })).toBeNull();
  });
});
