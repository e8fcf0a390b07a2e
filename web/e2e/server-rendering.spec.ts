import { expect, test, type Page } from '@playwright/test';
import { fetchProperties } from './support/properties';
import { waitForHydration } from './support/hydration';

// Every page the server renders (the portal is left to the browser), and an unknown address.
const renderedPages = [
  '/',
  '/properties',
  '/portfolio',
  '/property-map',
  '/management-team',
  '/significant-transactions',
  '/competitive-advantage',
  '/instructions',
  '/bulk-user-import-instructions',
  '/no-such-page',
];

/** The console's warnings and errors, and uncaught errors, but for what no page can keep out. */
function watchConsole(page: Page, path: string): string[] {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'warning' && message.type() !== 'error') return;
    const url = message.location().url;
    // Chrome logs the failed requests of the map tiles (no network here: OpenStreetMap cannot
    // be reached) and the 404 page's own status; neither comes from the page's code.
    if (/tile\.openstreetmap\.org/.test(url)) return;
    if (path === '/no-such-page' && new URL(url).pathname === path && /status of 404/.test(message.text())) return;
    messages.push(`${message.type()}: ${message.text()} (${url})`);
  });
  page.on('pageerror', (error) => messages.push(`uncaught: ${error.message}`));
  return messages;
}

/**
 * The page's layout shifts since its HTML was parsed (the browser may paint a long document
 * before it has parsed all of it, under load) that CLS counts (none caused by input), with what
 * moved: the app's script runs after the parse, so hydration's shifts are all here.
 */
function layoutShifts(page: Page): Promise<{ value: number; moved: string[] }[]> {
  return page.evaluate(
    () =>
      new Promise<{ value: number; moved: string[] }[]>((resolve) => {
        type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node | null }[] };
        const shifts: { value: number; moved: string[] }[] = [];
        const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        const parsed = navigation?.domInteractive ?? 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Shift[]) {
            if (entry.hadRecentInput || entry.startTime < parsed) continue;
            const moved = entry.sources.map((source) => (source.node instanceof Element ? source.node.outerHTML.slice(0, 120) : String(source.node?.nodeName)));
            shifts.push({ value: entry.value, moved });
          }
        }).observe({ type: 'layout-shift', buffered: true });
        // Buffered entries are delivered before the next frame.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(shifts)));
      }),
  );
}

/** The home page's sections below the hero, in order; each body is a chunk of its own. */
const homeSections = ['about', 'track-record', 'portfolio', 'advantage', 'investor', 'contact'];

/** Whether React has hydrated this element (it carries a fiber). */
const isHydrated = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber')));

test.describe('pages rendered by the server', () => {
  for (const path of renderedPages) {
    test(`${path} hydrates without a console warning or error, a layout shift or a second fetch of its data`, async ({ page }) => {
      const messages = watchConsole(page, path);
      const listRequests: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/properties') listRequests.push(request.url());
      });
      // The map's code is held back: the map is drawn by the browser after hydration, and then
      // Leaflet's own controls move as its layers arrive, which is no part of the server's page.
      await page.route(/\/assets\/leaflet-map-/, () => {});
      await page.goto(path);
      await waitForHydration(page);
      // The home page's sections hydrate as a reader comes near them: the reader goes down the page.
      if (path === '/') {
        for (const id of homeSections) {
          await page.locator(`#${id}`).scrollIntoViewIfNeeded();
          await waitForHydration(page, `#${id} h2`);
        }
      }
      expect(await layoutShifts(page)).toEqual([]);
      expect(messages).toEqual([]);
      expect(listRequests).toEqual([]);
    });
  }

  test("the home page fetches a section's code only as a reader comes near it, and keeps its markup meanwhile", async ({ page }) => {
    const chunks: string[] = [];
    page.on('request', (request) => {
      const chunk = /\/assets\/([\w-]+?)-[\w-]{8}\.js$/.exec(new URL(request.url()).pathname)?.[1];
      if (chunk) chunks.push(chunk);
    });
    await page.setViewportSize({ width: 412, height: 823 });
    await page.goto('/');
    await waitForHydration(page);
    // The first screen's sections hydrate at load; the ones far below wait, their markup whole.
    await expect.poll(() => isHydrated(page, '#about h2')).toBe(true);
    await page.waitForLoadState('networkidle');
    for (const id of ['advantage', 'investor', 'contact']) {
      expect(chunks).not.toContain(`${id}-section`);
      expect(await isHydrated(page, `#${id} h2`)).toBe(false);
    }
    await expect(page.locator('#contact')).toContainText('Pasadena');
    // A reader who reaches a section finds it working.
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await expect.poll(() => isHydrated(page, '#contact h2')).toBe(true);
    await expect(page.getByRole('form', { name: 'Contact form' })).toBeVisible();
    expect(chunks).toContain('contact-section');
  });

  test('the properties of the HTML are the ones the app shows once hydrated', async ({ page, request }) => {
    const active = (await fetchProperties(request)).filter((p) => p.status === 'active' && p.type !== 'headquarters');
    await page.goto('/properties');
    await waitForHydration(page);
    await expect(page.getByRole('main').getByRole('article')).toHaveCount(active.length);
    await expect(page).toHaveTitle('Our Property Portfolio | Everest Properties');
  });

  test('the first paint waits for the whole page, and the app loads after the page', async ({ request }) => {
    // A browser may paint a long document part-way; the bar's list is right-aligned, so a bar
    // painted with half its links moves them when the rest arrives (a layout shift under load).
    // Chromium lifts a rel=expect block at its target's start tag: the target follows the page.
    const html = await (await request.get('/significant-transactions')).text();
    const expectLink = /<link rel="expect" href="#([\w-]+)" blocking="render"/.exec(html);
    const target = html.indexOf(`<template id="${expectLink?.[1]}"></template>`);
    expect(target).toBeGreaterThan(html.lastIndexOf('</footer>'));
    // The HTML is the page: it loads only the boot script, and the app's code, with the page's own
    // chunks, waits inert in a template until the page is painted (src/boot.ts).
    expect(html).toMatch(/<script type="module" fetchpriority="low" crossorigin src="\/assets\/boot-[\w-]+\.js">/);
    const appCode = /<template id="app-code">([\s\S]*?)<\/template>/.exec(html)?.[1] ?? '';
    expect(appCode).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/);
    expect(appCode).toMatch(/<link rel="modulepreload" href="\/assets\/significant-transactions-[\w-]+\.js">/);
    expect(html.replace(appCode, '')).not.toMatch(/modulepreload|assets\/index-/);
  });

  test("the app's code is fetched once the page's first photo is in, and then hydrates the page", async ({ page }) => {
    // What the network carries, in order: the first card's photo must not share it with the code.
    const events: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/index-[\w-]+\.js$/.test(request.url())) events.push('code requested');
    });
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'image' && /\/media\//.test(request.url())) events.push(`photo in: ${new URL(request.url()).pathname}`);
    });
    await page.goto('/properties');
    const firstPhoto = await page.getByRole('main').getByRole('article').first().locator('img').evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname);
    await waitForHydration(page);
    const photoAt = events.indexOf(`photo in: ${firstPhoto}`);
    expect(photoAt, events.join('\n')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('code requested'), events.join('\n')).toBeGreaterThan(photoAt);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home page is readable, every section in place', async ({ page }) => {
    await page.goto('/');
    for (const heading of ['About Everest Properties', 'Proven Track Record', 'Our Portfolio', 'Our Competitive Advantage', 'Investor Services', 'Contact Us']) {
      const section = page.getByRole('heading', { level: 2, name: heading, exact: true });
      await section.scrollIntoViewIfNeeded();
      await expect(section).toBeVisible();
    }
    for (const text of ['Operational Excellence', 'Investment Opportunities', 'Pasadena']) {
      const found = page.getByRole('main').getByText(text, { exact: false }).first();
      await found.scrollIntoViewIfNeeded();
      await expect(found).toBeVisible();
    }
    // The counters show their figures, not a starting value.
    await expect(page.locator('#track-record')).toContainText('$200M+');
  });

  test('the links of the home page lead to pages that answer', async ({ page, request }) => {
    await page.goto('/');
    const hrefs = await page.locator('a[href^="/"]').evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute('href') ?? ''))]);
    expect(hrefs.length).toBeGreaterThan(8);
    for (const href of hrefs) expect((await request.get(href)).status(), href).toBe(200);
  });

  test('the footer leads from page to page, each readable', async ({ page, request }) => {
    const active = (await fetchProperties(request)).filter((p) => p.status === 'active' && p.type !== 'headquarters');
    await page.goto('/');
    const footerLink = (name: string) => page.getByRole('contentinfo').getByRole('link', { name, exact: true });

    await footerLink('Significant Transactions').click();
    await expect(page).toHaveURL(/\/significant-transactions$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Significant Transactions');
    await expect(page.getByRole('main').locator('figure img')).toHaveCount(94);

    await footerLink('Properties').click();
    await expect(page).toHaveURL(/\/properties$/);
    await expect(page.getByRole('main').getByRole('article')).toHaveCount(active.length);
    await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();

    await page.getByRole('navigation', { name: 'Filter properties by type' }).getByRole('link', { name: /^Retail/ }).click();
    await expect(page).toHaveURL(/\/properties\?filter=retail$/);
    await expect(page.getByRole('main').getByRole('article')).toHaveCount(active.filter((p) => p.type === 'retail').length);

    await footerLink('Management Team').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Management Team');
    await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  });

  test('the map page shows a picture of the region, from its tiles', async ({ page }) => {
    await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'));
    await page.goto('/property-map');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Property Portfolio Map');
    const tiles = page.locator('[data-map-preview] img');
    expect(await tiles.count()).toBeGreaterThanOrEqual(2);
    await expect(tiles.first()).toHaveAttribute('src', /tile\.openstreetmap\.org\/\d+\/\d+\/\d+\.png$/);
  });

  test('an unknown address shows the 404 page, whose links work', async ({ page }) => {
    const answer = await page.goto('/no-such-page');
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await page.getByRole('main').getByRole('link', { name: 'Property Map', exact: true }).click();
    await expect(page).toHaveURL(/\/property-map$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Property Portfolio Map');
  });
});
