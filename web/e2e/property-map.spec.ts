import { expect, test, type Locator, type Page } from '@playwright/test';
import type { PublicProperty } from '@everest/core/contract';
import { arriveByLink } from './support/hydration';
import { fetchProperties } from './support/properties';
import { axeOf } from './support/axe';

// The spec's filters, computed here from the answer rather than taken from the app.
const filters = {
  'All Active': (p: PublicProperty) => p.status === 'active' || p.type === 'headquarters',
  Residential: (p: PublicProperty) => p.type === 'residential' && p.status === 'active',
  'Self Storage': (p: PublicProperty) => p.type === 'self-storage' && p.status === 'active',
  Retail: (p: PublicProperty) => p.type === 'retail' && p.status === 'active',
  HQ: (p: PublicProperty) => p.type === 'headquarters',
  Sold: (p: PublicProperty) => p.status === 'sold',
} as const;
type FilterLabel = keyof typeof filters;

const hasCoordinates = (p: PublicProperty) =>
  p.latitude !== null && p.longitude !== null && Number.isFinite(Number(p.latitude)) && Number.isFinite(Number(p.longitude));

const typeLabels: Record<string, string> = {
  residential: 'Residential',
  'self-storage': 'Self Storage',
  retail: 'Retail',
  headquarters: 'Headquarters',
  'mixed-use': 'Mixed Use',
  other: 'Other',
};

/** Serious and critical axe findings. */
async function seriousAxeViolations(page: Page) {
  const results = await axeOf(page)
    // WCAG 2.2's target size (2.5.8) is off by default in axe; Lighthouse checks it.
    .options({ rules: { 'target-size': { enabled: true } } })
    // Fluent's focus guards are invisible helpers, not content; Leaflet's tile images are
    // decorative (alt="") and fail to load here, where there is no network.
    .exclude('[data-tabster-dummy]')
    .exclude('.leaflet-tile')
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

// There is no network here: tile requests fail at once instead of waiting for DNS.
test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'));
});

const main = (page: Page) => page.getByRole('main');
const filterButton = (page: Page, label: FilterLabel) =>
  page.getByRole('group', { name: 'Show on the map' }).getByRole('button', { name: new RegExp(`^${label} \\(`) });
const markers = (page: Page) => page.locator('.leaflet-marker-pane .leaflet-marker-icon');
const markerFor = (page: Page, name: string) =>
  page.locator('.leaflet-marker-pane').getByRole('button', { name: new RegExp(`^${escapeRegExp(name)},`) });
const byLocation = (page: Page) => main(page).getByRole('region', { name: 'Properties by Location' });

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The spec's colour names, judged from the rendered colour. */
function colourName(rgb: string): string {
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+/g) ?? []).map(Number).map((v) => v / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const saturation = max === 0 ? 0 : (max - min) / max;
  if (saturation < 0.15) return 'grey';
  const hue =
    max === r
      ? (60 * ((g - b) / (max - min)) + 360) % 360
      : max === g
        ? 60 * ((b - r) / (max - min)) + 120
        : 60 * ((r - g) / (max - min)) + 240;
  if (hue < 20 || hue >= 340) return 'red';
  if (hue < 65) return 'gold';
  if (hue < 170) return 'green';
  if (hue < 260) return 'blue';
  return 'purple';
}

function expectedColour(p: PublicProperty): string {
  if (p.status === 'sold') return 'grey';
  const colours: Partial<Record<PublicProperty['type'], string>> = { residential: 'blue', 'self-storage': 'red', retail: 'green', headquarters: 'gold' };
  return colours[p.type] ?? 'purple';
}

async function markerLooks(marker: Locator) {
  return marker.locator('[data-marker-kind]').evaluate((dot) => {
    const style = getComputedStyle(dot);
    // The dot's own size: while the map animates to a filter's view, its panes are scaled, and
    // the on-screen box is off by a fraction of a pixel.
    const dotElement = dot as HTMLElement;
    return { background: style.backgroundColor, border: style.borderTopStyle, width: dotElement.offsetWidth, height: dotElement.offsetHeight };
  });
}

async function openMap(page: Page) {
  await page.goto('/property-map');
  await expect(page.getByRole('heading', { level: 1, name: 'Property Portfolio Map' })).toBeVisible();
  await expect(page.locator('.leaflet-container')).toBeVisible();
}

test.describe('/property-map', () => {
  test('shows the six filter buttons with the counts of the data', async ({ page, request }) => {
    const properties = await fetchProperties(request);
    await openMap(page);
    for (const [label, matches] of Object.entries(filters)) {
      await expect(
        page.getByRole('group', { name: 'Show on the map' }).getByRole('button', {
          name: `${label} (${properties.filter(matches).length})`,
        }),
      ).toBeVisible();
    }
    await expect(filterButton(page, 'All Active')).toHaveAttribute('aria-pressed', 'true');
  });

  test('places exactly the visible properties with coordinates, in the spec colours, for each filter', async ({ page, request }) => {
    const properties = await fetchProperties(request);
    await openMap(page);
    for (const [label, matches] of Object.entries(filters) as [FilterLabel, (p: PublicProperty) => boolean][]) {
      await filterButton(page, label).click();
      await expect(filterButton(page, label)).toHaveAttribute('aria-pressed', 'true');
      const placed = properties.filter(matches).filter(hasCoordinates);
      await expect(markers(page), label).toHaveCount(placed.length);
      for (const property of placed) {
        const marker = markerFor(page, property.name);
        await expect(marker, property.name).toHaveCount(1);
        const looks = await markerLooks(marker);
        expect(colourName(looks.background), `${property.name} (${property.type}, ${property.status})`).toBe(
          expectedColour(property),
        );
        expect(looks.border, property.name).toBe(property.status === 'sold' ? 'dashed' : 'solid');
        expect([looks.width, looks.height]).toEqual([20, 20]);
      }
      for (const property of properties.filter(matches).filter((p) => !hasCoordinates(p))) {
        await expect(markerFor(page, property.name)).toHaveCount(0);
      }
    }
  });

  test('fits the view to the markers, and zooms to 10 on a single property', async ({ page, request }) => {
    const properties = await fetchProperties(request);
    await openMap(page);
    const frame = await page.locator('.leaflet-container').boundingBox();
    if (!frame) throw new Error('no map');
    // The markers arrive in batches, each spread apart from the others on screen: measured once
    // all are placed, not after a fixed wait that a busy machine can outlast.
    await expect(markers(page)).toHaveCount(properties.filter(filters['All Active']).filter(hasCoordinates).length);
    for (const marker of await markers(page).all()) {
      const box = await marker.boundingBox();
      expect(box).not.toBeNull();
      if (!box) continue;
      expect(box.x).toBeGreaterThanOrEqual(frame.x);
      expect(box.y).toBeGreaterThanOrEqual(frame.y);
      expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width);
      expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height);
    }

    // Close properties are spread apart on screen, so that every marker can be seen and
    // tapped: no two tap targets (24 px) overlap.
    const boxes = await markers(page).evaluateAll((all) => all.map((m) => m.getBoundingClientRect().toJSON()));
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => {
        const overlap = a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
        expect(overlap).toBe(false);
      }),
    );

    await filterButton(page, 'HQ').click();
    // The tile addresses carry the zoom level: /{z}/{x}/{y}.png.
    await expect(page.locator('img.leaflet-tile').last()).toHaveAttribute('src', /\/10\/\d+\/\d+\.png$/);
  });

  test('a click on a marker opens its popup with name, address, type and phone', async ({ page, request }) => {
    const properties = await fetchProperties(request);
    const hq = properties.find((p) => p.type === 'headquarters');
    if (!hq) throw new Error('the seed has no headquarters');
    await openMap(page);
    await filterButton(page, 'HQ').click();
    await markerFor(page, hq.name).click();

    const popup = page.locator('.leaflet-popup');
    await expect(popup).toBeVisible();
    await expect(popup.getByText(hq.name)).toBeVisible();
    await expect(popup.getByText(hq.address)).toBeVisible();
    await expect(popup.getByText(`${hq.city}, ${hq.state} ${hq.zipCode}`)).toBeVisible();
    await expect(popup.getByText('Headquarters', { exact: true })).toBeVisible();
    await expect(popup.getByText('SOLD')).toHaveCount(0);
    if (hq.phone) await expect(popup.getByRole('link', { name: hq.phone })).toHaveAttribute('href', /^tel:/);
  });

  test('a sold marker opens from the keyboard, shows SOLD, and Escape gives focus back', async ({ page, request }) => {
    const properties = await fetchProperties(request);
    const sold = properties.filter((p) => p.status === 'sold' && hasCoordinates(p)).sort((a, b) => a.name.localeCompare(b.name))[0];
    if (!sold) throw new Error('the seed has no sold property with coordinates');
    await openMap(page);
    await filterButton(page, 'Sold').click();
    const marker = markerFor(page, sold.name);
    await marker.focus();
    await page.keyboard.press('Enter');

    const popup = page.locator('.leaflet-popup');
    await expect(popup.getByText(sold.name)).toBeVisible();
    await expect(popup.getByText('SOLD', { exact: true })).toBeVisible();
    await expect(popup.getByText(typeLabels[sold.type] ?? '', { exact: true })).toBeVisible();
    await expect(popup.getByRole('group', { name: sold.name })).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(marker).toBeFocused();

    await page.keyboard.press(' ');
    await expect(popup.getByRole('group', { name: sold.name })).toBeFocused();
  });

  test('shows a legend of the marker colours', async ({ page }) => {
    await openMap(page);
    const legend = main(page).getByRole('list', { name: 'Legend' });
    await expect(legend.getByRole('listitem')).toHaveText([
      'Residential',
      'Self Storage',
      'Retail',
      'Headquarters',
      'Sold',
      'Mixed Use / Other',
    ]);
  });

  test('groups the visible properties by state, alphabetically, with a count per state', async ({ page, request }) => {
    const properties = await fetchProperties(request);
    await openMap(page);
    for (const label of ['All Active', 'Sold'] as const) {
      await filterButton(page, label).click();
      const counts = new Map<string, number>();
      for (const p of properties.filter(filters[label])) counts.set(p.state, (counts.get(p.state) ?? 0) + 1);
      const states = [...counts.keys()].sort();
      await expect(byLocation(page).getByRole('heading', { level: 3 })).toHaveText(
        states.map((state) => `${state} (${counts.get(state)})`),
      );
    }
  });

  test('an entry opens its detail card; Escape and the close button close it and focus returns', async ({ page, request }) => {
    const properties = await fetchProperties(request);
    const target = properties
      .filter((p) => filters['All Active'](p) && p.phone && p.website)
      .sort((a, b) => a.name.localeCompare(b.name))[0];
    if (!target) throw new Error('the seed lacks a property with phone and website');
    await openMap(page);

    const entry = byLocation(page).getByRole('button', { name: target.name, exact: true });
    await entry.click();
    await expect(entry).toHaveAttribute('aria-expanded', 'true');
    const card = byLocation(page).getByRole('group', { name: target.name });
    await expect(card).toBeFocused();
    await expect(card.locator('img')).toHaveAttribute('width', '800');
    await expect(card.getByText(target.address)).toBeVisible();
    await expect(card.getByRole('link', { name: target.phone ?? '' })).toHaveAttribute('href', /^tel:/);
    await expect(card.getByRole('link', { name: /^Visit Property Website/ })).toHaveAttribute('target', '_blank');

    await page.keyboard.press('Escape');
    await expect(card).toHaveCount(0);
    await expect(entry).toBeFocused();
    await expect(entry).toHaveAttribute('aria-expanded', 'false');

    await page.keyboard.press('Enter');
    await byLocation(page).getByRole('button', { name: `Close details of ${target.name}` }).click();
    await expect(card).toHaveCount(0);
    await expect(entry).toBeFocused();
  });

  test('shows the loading text while properties load', async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/properties', async (route) => {
      await held;
      await route.continue();
    });
    // From a page whose HTML does not carry the list (the map's own HTML does).
    await arriveByLink(page, 'Property Map');
    await expect(main(page).getByText('Loading property map...')).toBeVisible();
    release();
    await expect(page.locator('.leaflet-container')).toBeVisible();
  });

  test("the map's first picture: the region's tiles from the page's HTML, under the map until its own tiles have loaded", async ({ page }) => {
    // Tiles answer here (a 1 px PNG), so that both the picture and the map can finish loading.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mPk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await page.route(/tile\.openstreetmap\.org/, (route) => route.fulfill({ contentType: 'image/png', body: png }));
    // First without the map's code: the picture is what the HTML gives.
    let releaseMap = () => {};
    const mapCodeHeld = new Promise<void>((resolve) => (releaseMap = resolve));
    await page.route(/\/assets\/leaflet-map-/, async (route) => {
      await mapCodeHeld;
      await route.continue();
    });
    await page.goto('/property-map');
    const picture = page.locator('[data-map-preview]');
    const tiles = picture.locator('img');
    await expect(tiles.first()).toBeAttached();
    const sources = await tiles.evaluateAll((all) => all.map((img) => (img as HTMLImageElement).getAttribute('src') ?? ''));
    expect(sources.length).toBeGreaterThanOrEqual(2);
    for (const src of sources) expect(src).toMatch(/^https:\/\/[abc]\.tile\.openstreetmap\.org\/\d+\/\d+\/\d+\.png$/);
    await expect.poll(() => tiles.evaluateAll((all) => all.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0))).toBe(true);
    await expect(picture).toHaveAttribute('aria-hidden', 'true');
    // Then the map: once its own tiles have loaded, the picture is gone.
    releaseMap();
    await expect(page.locator('img.leaflet-tile').first()).toBeVisible();
    await expect(picture).toHaveCount(0);
    await expect(markers(page).first()).toBeVisible();
  });

  test('works without tiles: no console error but the failed tiles, and no serious accessibility violation', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${message.text()} ${message.location().url}`);
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await openMap(page);
    await expect(markers(page).first()).toBeVisible();
    await expect(main(page).getByText('The background map could not be loaded.', { exact: false })).toBeVisible();
    expect(errors.filter((e) => !/tile\.openstreetmap\.org/.test(e))).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test.describe('at 375 px', () => {
    test.use({ viewport: { width: 375, height: 800 } });

    test('keeps the map, legend and list within the screen', async ({ page }) => {
      await openMap(page);
      await expect(markers(page).first()).toBeVisible();
      const frame = await page.locator('.leaflet-container').boundingBox();
      expect(frame && frame.width <= 375 && frame.height >= 300).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await seriousAxeViolations(page)).toEqual([]);
    });
  });
});

/**
 * Scrolls the page until the middle of `target` sits 20 px into the sticky bar, then asks the
 * browser what a click there would hit.
 */
async function hitUnderBar(page: Page, target: Locator) {
  const box = await target.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
  await page.evaluate((by) => window.scrollBy(0, by), box.top + box.height / 2 - 20);
  return target.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    const bar = document.querySelector('header')!.getBoundingClientRect();
    const hit = document.elementFromPoint(x, y);
    return { insideBar: y > bar.top && y < bar.bottom, hitBar: !!hit?.closest('header'), hit: hit?.outerHTML.slice(0, 80) };
  });
}

// Leaflet's panes and controls have z-indexes up to 1000, which used to stack them above the
// sticky navigation bar (z-index 100) when the map scrolled under it.
for (const width of [1280, 375]) {
  test.describe(`at ${width} px, scrolled under the navigation bar`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('the bar stays above the zoom control and the markers', async ({ page }) => {
      await openMap(page);
      await expect(markers(page).first()).toBeVisible();
      const zoomIn = page.locator('.leaflet-control-zoom-in');
      await expect(zoomIn).toBeVisible();
      expect(await hitUnderBar(page, zoomIn)).toMatchObject({ insideBar: true, hitBar: true });

      await page.evaluate(() => window.scrollTo(0, 0));
      const marker = markers(page).first();
      expect(await hitUnderBar(page, marker)).toMatchObject({ insideBar: true, hitBar: true });
    });
  });
}
