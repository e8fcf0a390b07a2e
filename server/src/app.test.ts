import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagePaths } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../test/harness';

const shell = '<!doctype html><html><body><div id="root"></div><!-- everest shell --></body></html>';

/**
 * A web build folder `web` beside a `secret.txt` (and `web-private/secret.txt`, a sibling whose
 * name starts like the build's), so that a path escaping the build would find a real file.
 */
function webDistBesideASecret(): { webDist: string; secret: string; remove: () => void } {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'everest-web-'));
  const webDist = path.join(parent, 'web');
  mkdirSync(webDist);
  const secret = `secret ${randomBytes(8).toString('hex')}`;
  writeFileSync(path.join(parent, 'secret.txt'), secret);
  mkdirSync(path.join(parent, 'web-private'));
  writeFileSync(path.join(parent, 'web-private', 'secret.txt'), secret);
  return { webDist, secret, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/** Ways of asking for the secret beside the build from a path that starts inside it. */
function pathsOutside(webDist: string): string[] {
  const absolute = path.join(path.dirname(webDist), 'secret.txt');
  return [
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2e%2e%5csecret.txt',
    '/..\\secret.txt',
    '/%252e%252e%252fsecret.txt',
    '/assets/../../secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e%5c%2e%2e%5csecret.txt',
    '/../web-private/secret.txt',
    '/..%2fweb-private%2fsecret.txt',
    `/${encodeURIComponent(absolute)}`,
    `/%2e%2e%2f${encodeURIComponent(path.relative(webDist, absolute))}`,
  ];
}

/**
 * A GET of `rawPath` exactly as written: fetch() would resolve the dots and the server would
 * never see them.
 */
function rawGet(baseUrl: string, rawPath: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the HTTP edge', () => {
  let server: TestServer;
  const { webDist, secret, remove } = webDistBesideASecret();
  beforeAll(async () => {
    writeFileSync(path.join(webDist, 'index.html'), shell);
    server = await startTestServer({ webDist });
  });
  afterAll(async () => {
    await server.close();
    remove();
  });

  it('answers an unknown API path with 404 and a JSON error', async () => {
    const res = await server.api('/api/no-such-call');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ error: 'There is no such API call.' });
  });

  it('answers malformed JSON with 400 and a sentence, never a stack trace', async () => {
    const res = await server.api('/api/properties', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"firstName": ',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(body.error).toBe('The request body is not valid JSON.');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses a JSON body over 100 kB with 413', async () => {
    const res = await server.api('/api/properties', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(200_000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'The request is too large.' });
  });

  it('answers liveness without asking the database', async () => {
    const res = await server.api('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('sends the security headers and no X-Powered-By', async () => {
    const res = await server.api('/');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain('frame-ancestors');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBeTruthy();
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it.each([...pagePaths, '/Properties', '/PROPERTY-MAP/', '/Investor-Services'])(
    'serves the app shell for the spec page %s with 200, in any letter case as the router renders it',
    async (page) => {
      const res = await server.api(page);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('everest shell');
    },
  );

  it('serves the app shell with 404 for any other path, so the 404 page renders', async () => {
    const res = await server.api('/no/such/page');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toContain('everest shell');
  });

  it('answers a missing static file with a plain 404', async () => {
    const res = await server.api('/assets/missing.js');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not found');
  });

  it('does not serve files outside the web app folder, however the path is encoded', async () => {
    for (const outside of pathsOutside(webDist)) {
      const res = await rawGet(server.url, outside);
      expect([400, 404], outside).toContain(res.status);
      expect(res.text, outside).not.toContain(secret);
    }
  });
});

describe('the built web app', () => {
  let server: TestServer;
  const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;
  const { webDist, remove } = webDistBesideASecret();
  beforeAll(async () => {
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><html><head><title>t</title><template id="app-code"><script type="module" src="/assets/app-1.js"></script><!--page-code--></template></head><body></body></html>',
    );
    writeFileSync(
      path.join(webDist, 'page-links.json'),
      JSON.stringify({
        '/properties': [{ rel: 'modulepreload', href: '/assets/properties-1.js' }],
        '/': [{ rel: 'preload', as: 'image', href: '/assets/hero-1.svg' }],
      }),
    );
    mkdirSync(path.join(webDist, 'assets'));
    mkdirSync(path.join(webDist, 'assets', 'folder.js'));
    const file = path.join(webDist, 'assets', 'app-1.js');
    writeFileSync(file, script);
    writeFileSync(`${file}.br`, brotliCompressSync(script));
    writeFileSync(`${file}.gz`, gzipSync(script));
    server = await startTestServer({ webDist });
  });
  afterAll(async () => {
    await server.close();
    remove();
  });

  it("puts a page's own link hints into its shell, its chunks with the app's code, and none into others", async () => {
    const page = await (await server.api('/properties/')).text();
    // Inert in the app's template until web/src/boot.ts starts the code after the first paint.
    expect(page).toContain('<script type="module" src="/assets/app-1.js"></script><link rel="modulepreload" href="/assets/properties-1.js"></template>');
    expect(await (await server.api('/Properties')).text()).toBe(page);
    const home = await (await server.api('/')).text();
    expect(home).not.toContain('modulepreload');
    expect(home).toMatch(/<\/template>\s*<link rel="preload" as="image" href="\/assets\/hero-1.svg">\s*<\/head>/);
    expect(await (await server.api('/no/such/page')).text()).not.toContain('modulepreload');
  });

  it('sends the precompressed copy the browser accepts, and the file itself otherwise', async () => {
    const file = path.join(webDist, 'assets', 'app-1.js');
    const sizes = { br: statSync(`${file}.br`).size, gzip: statSync(`${file}.gz`).size, null: statSync(file).size };
    for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip', 'gzip'], ['identity', null]] as const) {
      const res = await server.api('/assets/app-1.js', { headers: { 'accept-encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      // The length of the copy sent, read from the file it opened.
      expect(res.headers.get('content-length')).toBe(String(sizes[encoding ?? 'null']));
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await res.text()).toBe(script);
    }
  });

  it('answers 404 for a file that is not in the build, a folder, or a path outside it', async () => {
    for (const asset of ['/assets/missing-1.js', '/assets/folder.js', ...pathsOutside(webDist)]) {
      const res = await rawGet(server.url, asset);
      expect(res.status, asset).toBe(404);
      expect(res.text, asset).toBe('Not found');
    }
  });
});
