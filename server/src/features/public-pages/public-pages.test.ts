import { existsSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactionCount } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';
import { webDist } from '../../server';
import { renderEntryOf } from './page-renderer';
import { sitemapPages } from './public-pages';

const publicUrl = 'https://www.everest.example';
const tileUrl = 'http://tiles.everest.example/{z}/{x}/{y}.png';

/** The visible text of `#root`, as a reader without JavaScript (or a crawler) gets it. */
function rootText(html: string): string {
  const start = html.indexOf('<div id="root">');
  const end = html.lastIndexOf('<script');
  return html
    .slice(start, end > start ? end : undefined)
    .replace(/<(style|script)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');
}

const headOf = (html: string) => html.slice(0, html.indexOf('</head>'));
const metaContent = (html: string, key: string) =>
  new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(headOf(html))?.[1];

// The spec's order of the list's groups (public site, section 4), then the project's own groups.
const groupOrder = ['residential', 'self-storage', 'retail', 'mixed-use', 'other'];

describe('public pages rendered by the server', () => {
  let server: TestServer;
  let second: TestServer;
  const get = (path: string, init?: RequestInit) => server.api(path, init);

  beforeAll(async () => {
    // The web app's build, server render included (pnpm test builds it before the tests).
    expect(existsSync(renderEntryOf(webDist)), 'build the web app first: pnpm --filter @everest/web build').toBe(true);
    server = await startTestServer({ seed: true, webDist, env: { PUBLIC_URL: publicUrl, TILE_URL: tileUrl } });
    second = await startTestServer({ besides: server, webDist, env: { PUBLIC_URL: publicUrl, TILE_URL: tileUrl } });
  });
  afterAll(async () => {
    await second.close();
    await server.close();
  });

  it('answers / with every section of the home page in its HTML', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    const text = rootText(await res.text());
    for (const expected of ['Proven Track Record', 'Operational Excellence', 'Investment Opportunities', 'Pasadena', 'About Everest Properties', 'Contact Us']) {
      expect(text).toContain(expected);
    }
  });

  it("answers /properties with the active properties' names in the spec's group order", async () => {
    const rows: { name: string; type: string }[] = await server.services.orm.em
      .fork()
      .getConnection()
      .execute(`select name, type from properties where status = 'active' and type <> 'headquarters'`);
    const expected = rows
      .sort((a, b) => groupOrder.indexOf(a.type) - groupOrder.indexOf(b.type) || a.name.localeCompare(b.name, 'en'))
      .map((row) => row.name);
    expect(expected.length).toBeGreaterThan(10);
    const text = rootText(await (await get('/properties')).text());
    const positions = expected.map((name) => text.indexOf(name));
    expect(positions.every((position) => position >= 0), `missing: ${expected.filter((_, i) => positions[i] === -1).join(', ')}`).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('embeds the property list it rendered, as GET /api/properties answers it, so the browser fetches nothing again', async () => {
    const html = await (await get('/properties')).text();
    const data = JSON.parse(/<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null') as {
      properties?: unknown;
      tileUrl?: string;
      serverRendered?: boolean;
    };
    expect(data.properties).toEqual(await (await get('/api/properties')).json());
    expect(data.serverRendered).toBe(true);
    expect(data.tileUrl).toBe(tileUrl);
  });

  it('answers /significant-transactions with its 94 tombstones', async () => {
    const html = await (await get('/significant-transactions')).text();
    expect(transactionCount).toBe(94);
    expect(html.match(/alt="Transaction \d+ announcement"/g)).toHaveLength(transactionCount);
  });

  it("answers an unknown path with the 404 page's text and status 404, not indexed", async () => {
    const res = await get('/no/such/page');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(rootText(html)).toContain('Page Not Found');
    expect(metaContent(html, 'robots')).toBe('noindex');
    expect(headOf(html)).not.toContain('rel="canonical"');
  });

  it.each([
    ['/', 'Everest Properties | A Privately-Held, Real Estate Investment Firm', `${publicUrl}/`],
    ['/properties', 'Our Property Portfolio | Everest Properties', `${publicUrl}/properties`],
    ['/portfolio', 'Our Property Portfolio | Everest Properties', `${publicUrl}/properties`],
    ['/property-map', 'Property Portfolio Map | Everest Properties', `${publicUrl}/property-map`],
    ['/management-team', 'Management Team | Everest Properties', `${publicUrl}/management-team`],
    ['/significant-transactions', 'Significant Transactions | Everest Properties', `${publicUrl}/significant-transactions`],
  ])('gives %s its own title, description, canonical address and link preview', async (path, title, canonical) => {
    const html = await (await get(path)).text();
    const head = headOf(html);
    expect(head.match(/<title>/g)).toHaveLength(1);
    expect(head).toContain(`<title>${title.replace('&', '&amp;')}</title>`);
    expect(head).toContain(`<link rel="canonical" href="${canonical}">`);
    expect(metaContent(html, 'description')?.length).toBeGreaterThan(50);
    expect(head.match(/<meta name="description"/g)).toHaveLength(1);
    expect(metaContent(html, 'og:title')).toBe(title);
    expect(metaContent(html, 'og:url')).toBe(canonical);
    expect(metaContent(html, 'og:image')).toBe(`${publicUrl}/share-image.png`);
    expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaContent(html, 'twitter:image')).toBe(`${publicUrl}/share-image.png`);
    expect(metaContent(html, 'robots')).toBeUndefined();
  });

  it('serves the link previews\' picture as a 1200 × 630 PNG', async () => {
    const res = await get('/share-image.png');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const { format, width, height } = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect({ format, width, height }).toEqual({ format: 'png', width: 1200, height: 630 });
  });

  it('keeps the investor portal out of search engines, and leaves it to the browser', async () => {
    const html = await (await get('/investor-services')).text();
    expect(metaContent(html, 'robots')).toBe('noindex');
    expect(headOf(html)).toContain('<title>Investor Services | Everest Properties</title>');
    expect(html).not.toContain('"serverRendered":true');
  });

  it('describes the firm with its corporate office as JSON-LD on the home page only', async () => {
    const html = await (await get('/')).text();
    const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(headOf(html))?.[1];
    const organization = JSON.parse(json ?? 'null') as Record<string, unknown>;
    expect(organization).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Organization',
      name: 'Everest Properties',
      url: `${publicUrl}/`,
      address: { '@type': 'PostalAddress', addressLocality: 'Pasadena', addressRegion: 'CA', postalCode: '91101' },
    });
    expect(await (await get('/properties')).text()).not.toContain('application/ld+json');
  });

  it('serves robots.txt that keeps crawlers out of the portal and the API, and a sitemap of the public pages', async () => {
    const robots = await get('/robots.txt');
    expect(robots.headers.get('content-type')).toMatch(/text\/plain/);
    const lines = (await robots.text()).split('\n');
    expect(lines).toEqual(expect.arrayContaining(['User-agent: *', 'Disallow: /investor-services', 'Disallow: /api/', `Sitemap: ${publicUrl}/sitemap.xml`]));
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.headers.get('content-type')).toMatch(/xml/);
    const locations = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(sitemapPages.map((page) => `${publicUrl}${page}`));
    expect(locations).toContain(`${publicUrl}/significant-transactions`);
    expect(locations).not.toContain(`${publicUrl}/investor-services`);
  });

  it('moves a page address in another letter case or with a trailing slash to its own, query kept', async () => {
    const res = await get('/Properties/?filter=retail', { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/properties?filter=retail');
  });

  it('renders the filtered list for its filter', async () => {
    const text = rootText(await (await get('/properties?filter=retail')).text());
    const rows: { name: string; type: string }[] = await server.services.orm.em
      .fork()
      .getConnection()
      .execute(`select name, type from properties where status = 'active' and type in ('retail', 'residential')`);
    for (const row of rows) {
      if (row.type === 'retail') expect(text).toContain(row.name);
      else expect(text).not.toContain(row.name);
    }
  });

  it('sends the brotli or gzip form the browser accepts', async () => {
    const plain = await (await get('/management-team', { headers: { 'accept-encoding': 'identity' } })).text();
    const res = await get('/management-team', { headers: { 'accept-encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    // fetch decodes it; the raw bytes are checked through a second, undecoded read.
    expect(await res.text()).toBe(plain);
    const raw = await new Promise<Buffer>((resolve, reject) => {
      import('node:http')
        .then(({ get: httpGet }) =>
          httpGet(`${server.url}/management-team`, { headers: { 'accept-encoding': 'br' } }, (answer) => {
            const chunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => chunks.push(chunk));
            answer.on('end', () => resolve(Buffer.concat(chunks)));
          }).on('error', reject),
        )
        .catch(reject);
    });
    expect(brotliDecompressSync(raw).toString('utf8')).toBe(plain);
    expect(raw.length).toBeLessThan(plain.length / 4);
  });

  it('shows a property renamed in the database in the next HTML of /properties, on every instance', async () => {
    // Both instances have the page in their cache.
    for (const instance of [server, second]) {
      expect(rootText(await (await instance.api('/properties')).text())).toContain('Sunset Terrace Apartments');
      expect(await (await instance.api('/')).text()).toContain('Sunset Terrace Apartments');
    }
    await server.services.orm.em
      .fork()
      .getConnection()
      .execute(`update properties set name = 'Sunset Terrace Residences' where name = 'Sunset Terrace Apartments'`);
    // The database announces the change to every instance (LISTEN/NOTIFY); each drops its pages.
    for (const instance of [server, second]) {
      await expect
        .poll(async () => rootText(await (await instance.api('/properties')).text()), { timeout: 10_000 })
        .toContain('Sunset Terrace Residences');
      expect(rootText(await (await instance.api('/properties')).text())).not.toContain('Sunset Terrace Apartments');
      // The home page embeds the list for its portfolio: dropped by the same notification.
      const home = await (await instance.api('/')).text();
      expect(home).toContain('Sunset Terrace Residences');
      expect(home).not.toContain('Sunset Terrace Apartments');
    }
  });
});
