import { expect, test, type Page } from '@playwright/test';
import { waitForHydration } from './support/hydration';
import { siteContent } from '@everest/fixtures/content';
import { siteFacts } from '@everest/fixtures/site';
import { fetchProperties } from './support/properties';
import { axeOf } from './support/axe';

// The home page against the real server and its demo data (spec: public site, section 2 "Home
// page" and "Contact section", sections 4, 5, 8 and 9). The contact form's submission (success
// and server failure) is covered by contact.spec.ts.

interface ApiProperty {
  type: string;
  status: string;
}

/** Scrolls through the page, so that every part that loads near the viewport has loaded. */
async function loadWholePage(page: Page) {
  for (const id of ['about', 'track-record', 'portfolio', 'advantage', 'investor', 'contact']) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await expect(page.locator(`#${id}-title`)).toBeVisible();
    // The carousel mounts as its section comes near: waited for there, as a reader stopping at
    // it would. A scroll that passed it before the section's code had arrived leaves it unloaded
    // until the reader comes back.
    if (id === 'portfolio') await expect(page.getByRole('region', { name: 'Our properties' })).toBeVisible();
  }
  await expect(page.getByRole('form', { name: 'Contact form' })).toBeVisible();
}

const toast = (page: Page) => page.getByTestId('toast');

/**
 * Waits for the track record's counters, which count up for 2 s once half on screen, to show the
 * spec's figures. They are brought on screen first: a scroll that passed the section before its
 * code had arrived leaves them at their starting figures until the reader comes back.
 */
async function expectFinalFigures(page: Page) {
  const track = page.locator('#track-record');
  await track.getByRole('list').scrollIntoViewIfNeeded();
  for (const { value, label } of [
    { value: '30+', label: 'Years Experience' },
    { value: '$200M+', label: 'Invested Capital' },
    { value: '46', label: 'Properties Acquired' },
    { value: '95%+', label: 'Average Occupancy' },
  ]) {
    await expect(track.getByRole('listitem').filter({ hasText: label })).toHaveText(`${value}${value}${label}`, {
      timeout: 5000,
    });
  }
}

async function openContactForm(page: Page) {
  await page.goto('/');
  await page.locator('#contact').scrollIntoViewIfNeeded();
  const form = page.getByRole('form', { name: 'Contact form' });
  await expect(form.getByLabel(/^First Name/)).toBeVisible();
  return form;
}

/**
 * The section with this anchor is scrolled to: its top sits just below the sticky bar. Arriving
 * from another page, the home page's code and its sections' chunks load first, which on a busy
 * machine took over 5 s: the wait is for the section in place, however long that takes.
 */
async function expectScrolledTo(page: Page, id: string) {
  const top = () => page.locator(`#${id}`).evaluate((el) => Math.round(el.getBoundingClientRect().top));
  await expect.poll(top, { timeout: 15_000 }).toBeGreaterThanOrEqual(0);
  await expect.poll(top, { timeout: 15_000 }).toBeLessThan(120);
}

/**
 * Clicks the bar's Contact link on the team page once the app has hydrated: the app's
 * navigation, not the browser's (a click before hydration loads /#contact afresh).
 */
async function clickContactOnAnotherPage(page: Page) {
  await page.goto('/management-team');
  await waitForHydration(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' }).click();
}

/** Holds the browser's request for one of the app's code chunks until the returned function is called. */
async function holdChunk(page: Page, name: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(new RegExp(`/assets/${name}-[\\w-]+\\.js$`), async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test.describe('home page', () => {
  test('shows the hero with its title, tagline and both buttons', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: siteFacts.firmName })).toBeVisible();
    await expect(page.getByText('A Privately-Held, Real Estate Investment Firm').first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'View Our Portfolio' })).toHaveAttribute('href', '/properties');
    // A real link to the section, so that it works before the app's code has arrived.
    await expect(page.getByRole('link', { name: 'Investor Inquiries' })).toHaveAttribute('href', '/#contact');
  });

  test('shows every text of the spec, section by section', async ({ page }) => {
    await page.goto('/');
    await loadWholePage(page);
    const main = page.getByRole('main');

    const about = page.locator('#about');
    await expect(about.getByRole('heading', { level: 2, name: siteContent.about.heading })).toBeVisible();
    for (const { value, label } of [
      { value: '$500M+', label: 'Portfolio Value' },
      { value: '650+', label: 'Limited Partnerships' },
    ]) {
      await expect(about.getByRole('listitem').filter({ hasText: label })).toContainText(value);
    }

    const track = page.locator('#track-record');
    await expect(track.getByRole('heading', { name: 'Proven Track Record' })).toBeVisible();
    await expectFinalFigures(page);

    const portfolio = page.locator('#portfolio');
    await expect(portfolio.getByRole('heading', { level: 3, name: 'Residential', exact: true })).toBeVisible();
    await expect(portfolio.getByRole('heading', { level: 3, name: 'Self Storage / Retail' })).toBeVisible();
    const viewProperties = portfolio.getByRole('link', { name: 'View Properties', exact: true });
    await expect(viewProperties).toHaveCount(2);
    await expect(viewProperties.nth(0)).toHaveAttribute('href', '/properties?filter=residential');
    await expect(viewProperties.nth(1)).toHaveAttribute('href', '/properties?filter=self-storage-retail');
    await expect(portfolio.getByRole('link', { name: 'View All Properties' })).toHaveAttribute('href', '/properties');

    const advantage = page.locator('#advantage');
    await expect(advantage.getByRole('heading', { level: 2, name: 'Our Competitive Advantage' })).toBeVisible();
    await expect(advantage.getByText(siteContent.advantage.subtitle)).toBeVisible();
    for (const title of ['Market Analysis', 'Due Diligence', 'Operational Excellence']) {
      await expect(advantage.getByRole('heading', { level: 3, name: title })).toBeVisible();
    }
    await expect(advantage.getByRole('link', { name: 'Learn More About Our Advantages' })).toHaveAttribute(
      'href',
      '/competitive-advantage',
    );

    const investor = page.locator('#investor');
    await expect(investor.getByRole('heading', { level: 2, name: 'Investor Services' })).toBeVisible();
    await expect(investor.getByText(/^partner with us for exceptional real estate investment opportunities$/i)).toBeVisible();
    await expect(investor.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/#contact');
    await expect(investor.getByRole('heading', { name: 'Investment Opportunities' })).toBeVisible();
    for (const opportunity of [
      /multifamily residential properties in major metropolitan markets/i,
      /self-storage facilities with strong market fundamentals/i,
      /retail and commercial properties with stable cash flows/i,
      /restructuring and recapitalization opportunities/i,
    ]) {
      await expect(investor.getByText(opportunity)).toBeVisible();
    }

    const contact = page.locator('#contact');
    await expect(contact.getByRole('heading', { level: 2, name: 'Contact Us' })).toBeVisible();
    await expect(contact.getByText(`${siteFacts.office.city}, ${siteFacts.office.state}`)).toBeVisible();
    expect(siteFacts.office.city).toBe('Pasadena');
    await expect(contact.getByRole('link', { name: siteFacts.office.phone })).toBeVisible();
    await expect(contact.getByText(siteFacts.office.fax)).toBeVisible();
    expect(siteFacts.departments.map((d) => d.key)).toEqual([
      'general',
      'investor-relations',
      'human-resources',
      'realty-management',
    ]);
    for (const department of siteFacts.departments) {
      await expect(contact.getByRole('link', { name: department.email })).toHaveAttribute(
        'href',
        `mailto:${department.email}`,
      );
    }

    const form = page.getByRole('form', { name: 'Contact form' });
    for (const label of ['First Name', 'Last Name', 'Email', 'Subject', 'Message']) {
      // Fluent marks a required field with an asterisk after the label.
      await expect(form.getByText(new RegExp(`^${label}\\s*\\*$`))).toBeVisible();
      await expect(form.getByLabel(new RegExp(`^${label}`))).toBeVisible();
    }
    await expect(form.getByLabel(/^Email/)).toHaveAttribute('type', 'email');
    const messageHeight = await form.getByLabel(/^Message/).evaluate((el) => parseFloat(getComputedStyle(el).minHeight));
    expect(messageHeight).toBeGreaterThanOrEqual(80);
    await expect(form.getByRole('button', { name: 'Send Message' })).toBeEnabled();

    // The divider image between the sections is decorative.
    const dividers = main.locator('img[src*="divider"]');
    expect(await dividers.count()).toBeGreaterThanOrEqual(5);
    for (const divider of await dividers.all()) await expect(divider).toHaveAttribute('alt', '');
  });

  test('portfolio cards count the active properties of the API answer', async ({ page, request }) => {
    const answer = await request.get('/api/properties');
    expect(answer.ok()).toBe(true);
    const properties: ApiProperty[] = await answer.json();
    const active = properties.filter((p) => p.status === 'active');
    const residential = active.filter((p) => p.type === 'residential').length;
    const storageAndRetail = active.filter((p) => p.type === 'self-storage' || p.type === 'retail').length;
    expect(residential).toBeGreaterThan(0);

    await page.goto('/');
    await page.locator('#portfolio').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('portfolio-count-residential')).toHaveText(String(residential));
    await expect(page.getByTestId('portfolio-count-self-storage-retail')).toHaveText(String(storageAndRetail));
    // One slide per active property but the headquarters, as in the list (web/README).
    const slides = page.getByRole('region', { name: 'Our properties' }).getByRole('group');
    await expect(slides).toHaveCount(active.filter((p) => p.type !== 'headquarters').length);
  });

  test("the portfolio cards' links stay the same elements while the carousel's part loads around them", async ({ page }) => {
    // A link replaced between a press and its release loses the click: the cards once were
    // drawn again as the carousel's chunk arrived, and a click at that moment did nothing.
    await page.goto('/');
    const link = page.getByRole('link', { name: 'View Properties', exact: true }).nth(1);
    await link.evaluate((element) => ((window as unknown as { portfolioLink: Element }).portfolioLink = element));
    await page.locator('#portfolio').scrollIntoViewIfNeeded();
    await expect(page.getByRole('region', { name: 'Our properties' }).getByRole('group').first()).toBeVisible();
    expect(await link.evaluate((element) => element === (window as unknown as { portfolioLink: Element }).portfolioLink)).toBe(true);
  });

  test("the Self Storage / Retail card's View Properties lists the properties it counts", async ({ page, request }) => {
    const properties = await fetchProperties(request);
    const byName = (a: { name: string }, b: { name: string }) =>
      a.name.localeCompare(b.name, 'en', { sensitivity: 'base', numeric: true });
    const activeOf = (type: string) =>
      properties.filter((p) => p.status === 'active' && p.type === type).sort(byName).map((p) => p.name);
    const counted = [...activeOf('self-storage'), ...activeOf('retail')];

    await page.goto('/');
    await page.locator('#portfolio').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('portfolio-count-self-storage-retail')).toHaveText(String(counted.length));
    await page.getByRole('link', { name: 'View Properties', exact: true }).nth(1).click();

    await expect(page.getByRole('heading', { level: 1, name: 'Our Property Portfolio' })).toBeVisible();
    const cards = page.getByRole('main').getByRole('article').getByRole('heading', { level: 3 });
    await expect(cards).toHaveText(counted);
    const filters = page.getByRole('navigation', { name: 'Filter properties by type' });
    await expect(filters.getByRole('link', { name: /^Self Storage/ })).toHaveAttribute('aria-current', 'page');
    await expect(filters.getByRole('link', { name: /^Retail/ })).toHaveAttribute('aria-current', 'page');
    await expect(filters.getByRole('link', { name: /^Residential/ })).not.toHaveAttribute('aria-current');
  });

  test('the carousel steps with Previous and Next and loops at both ends', async ({ page }) => {
    await page.goto('/');
    await page.locator('#portfolio').scrollIntoViewIfNeeded();
    const carousel = page.getByRole('region', { name: 'Our properties' });
    const slides = carousel.getByRole('group');
    await expect(slides.first()).toBeVisible();
    const total = await slides.count();
    // Stop the automatic steps, so that only the buttons move it.
    await carousel.getByRole('button', { name: 'Pause automatic scrolling' }).click();
    await expect(carousel.getByRole('button', { name: 'Start automatic scrolling' })).toBeVisible();

    const previous = carousel.getByRole('button', { name: 'Previous property' });
    const next = carousel.getByRole('button', { name: 'Next property' });
    await expect(previous).toBeEnabled();
    await expect(next).toBeEnabled();
    await expect(carousel).toHaveAttribute('data-selected', '0');

    // Back from the first slide: the last one.
    await previous.click();
    await expect(carousel).toHaveAttribute('data-selected', String(total - 1));
    await expect
      .poll(() => slides.last().evaluate((el) => Math.round(el.getBoundingClientRect().left)))
      .toBeLessThan(await carousel.evaluate((el) => el.getBoundingClientRect().left + 40));
    // On from the last slide: the first one again.
    await next.click();
    await expect(carousel).toHaveAttribute('data-selected', '0');
    await next.click();
    await expect(carousel).toHaveAttribute('data-selected', '1');

    // Each slide: image with its size set and lazy loading, name, city and state, type label.
    const first = slides.first();
    const image = first.locator('img');
    await expect(image).toHaveAttribute('loading', 'lazy');
    await expect(image).toHaveAttribute('width', /\d+/);
    await expect(image).toHaveAttribute('height', /\d+/);
    await expect(first.getByText(/^(Residential|Self Storage|Retail)$/)).toBeVisible();
    const website = carousel.getByRole('link', { name: /Visit Website/ }).first();
    await expect(website).toHaveAttribute('target', '_blank');
    await expect(website).toHaveAttribute('rel', 'noopener noreferrer');
  });

  test('the carousel advances by itself every 3 to 5 seconds', async ({ page }) => {
    await page.goto('/');
    await page.locator('#portfolio').scrollIntoViewIfNeeded();
    const carousel = page.getByRole('region', { name: 'Our properties' });
    await expect(carousel).toHaveAttribute('data-selected', '0');
    // Keep the pointer away from it: hovering pauses it.
    await page.mouse.move(0, 0);
    await expect(carousel).toHaveAttribute('data-selected', '1', { timeout: 7000 });
  });

  test("'Investor Inquiries' smooth-scrolls to the contact section", async ({ page }) => {
    await page.goto('/');
    const link = page.getByRole('link', { name: 'Investor Inquiries' });
    await waitForHydration(page, link);
    await page.evaluate(() => {
      const positions: number[] = [];
      Object.assign(window, { scrollPositions: positions });
      window.addEventListener('scroll', () => positions.push(window.scrollY), { passive: true });
    });
    await link.click();
    await expectScrolledTo(page, 'contact');
    expect(new URL(page.url()).pathname).toBe('/');
    // Smooth: the window passed through places on its way (a jump is one scroll event).
    const positions = await page.evaluate(() => (window as unknown as { scrollPositions: number[] }).scrollPositions);
    expect(new Set(positions).size).toBeGreaterThan(3);
  });

  test("'Investor Inquiries' clicked before the app's code has arrived still ends at the contact section", async ({
    page,
  }) => {
    const release = await holdChunk(page, 'index');
    // The load event would wait for the held code.
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await page.getByRole('link', { name: 'Investor Inquiries' }).click();
    await expect(page).toHaveURL(/\/#contact$/);
    release();
    await expectScrolledTo(page, 'contact');
  });

  test("Investor Services' 'Contact Us' scrolls to the contact section too", async ({ page }) => {
    await page.goto('/');
    await page.locator('#investor').scrollIntoViewIfNeeded();
    // The section's body is a chunk of its own: before its code the link is the browser's jump,
    // after it the app's smooth scroll, which is the one tested here.
    const link = page.locator('#investor').getByRole('link', { name: 'Contact Us' });
    await waitForHydration(page, link);
    await link.click();
    await expectScrolledTo(page, 'contact');
  });

  test('the Contact link on another page goes home and scrolls the contact section into view', async ({ page }) => {
    await clickContactOnAnotherPage(page);
    await expect(page).toHaveURL(/\/$/);
    await expectScrolledTo(page, 'contact');
    await expect(page.locator('#contact-title')).toBeInViewport();
  });

  test('a section scroll that something stopped on its way still ends at the section', async ({ page }) => {
    // Every chunk of the home page in first, so that no section arriving later aims the scroll again.
    await page.goto('/');
    await loadWholePage(page);
    const teamLink = page.getByRole('contentinfo').getByRole('link', { name: 'Management Team' });
    await waitForHydration(page, teamLink);
    await teamLink.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Management Team' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' }).click();
    await expect(page.locator('#contact')).toBeFocused();
    // The browser drops a smooth scroll when something else scrolls the window: what was seen
    // under load, the page left at its top with the section focused. No reader input here.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await expectScrolledTo(page, 'contact');
    await expect(page.locator('#contact')).toBeFocused();
  });

  test('a section scroll that stopped at the end of a page still loading goes on to the section', async ({ page }) => {
    const release = await holdChunk(page, 'contact-section');
    await clickContactOnAnotherPage(page);
    await expect(page.locator('#contact')).toBeFocused();
    for (const id of ['about', 'portfolio', 'advantage', 'investor']) await expect(page.locator(`#${id}-title`)).toBeAttached();
    // The contact form is still on its way: the page ends too soon for the section to reach the top.
    const atPageEnd = () =>
      page.evaluate(() => Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight);
    await expect.poll(atPageEnd).toBe(true);
    release();
    await expect(page.getByRole('form', { name: 'Contact form' })).toBeAttached();
    await expectScrolledTo(page, 'contact');
  });

  test('a section scroll is aimed again when the section moved while the code that holds it was loading', async ({
    page,
  }) => {
    const releaseInvestor = await holdChunk(page, 'investor-section');
    const releaseHold = await holdChunk(page, 'keep-section-in-view');
    await clickContactOnAnotherPage(page);
    await expect(page.locator('#contact')).toBeFocused();
    releaseInvestor();
    await expect(page.locator('#investor-title')).toBeAttached();
    releaseHold();
    await expectScrolledTo(page, 'contact');
  });

  test('the contact form asks for the required fields first, then for the captcha, and sends nothing', async ({
    page,
  }) => {
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/contact') && r.method() === 'POST') posts.push(r.url());
    });
    const form = await openContactForm(page);
    const send = form.getByRole('button', { name: 'Send Message' });

    await send.click();
    await expect(toast(page)).toContainText('Please fill in all required fields.');
    await expect(toast(page)).toHaveAttribute('data-variant', 'destructive');

    await form.getByLabel(/^First Name/).fill('Grace');
    await form.getByLabel(/^Last Name/).fill('Hopper');
    await form.getByLabel(/^Email/).fill('grace@example.com');
    await form.getByLabel(/^Subject/).fill('Question');
    await send.click();
    await expect(toast(page)).toContainText('Please fill in all required fields.');

    await form.getByLabel(/^Message/).fill('Hello');
    await send.click();
    await expect(toast(page)).toContainText('Please complete the reCAPTCHA verification.');
    await expect(toast(page)).toHaveAttribute('data-variant', 'destructive');
    // At most one toast at a time: the newer one replaced the older.
    await expect(page.getByText('Please fill in all required fields.')).toHaveCount(0);
    expect(posts).toEqual([]);
  });

  test('a toast goes on a swipe to the right of 50 px and F8 focuses it', async ({ page }) => {
    const form = await openContactForm(page);
    await form.getByRole('button', { name: 'Send Message' }).click();
    const shown = toast(page);
    await expect(shown).toBeVisible();

    /** Drags the toast `dx` px to the right from 40 px inside its left edge. */
    const swipe = async (dx: number) => {
      // The toast grows upwards into place as it enters, and springs back after a short drag:
      // hover waits until it holds still under the pointer, where a reader would press, instead
      // of pressing where it was when first seen (which can be below its final place).
      await shown.hover({ position: { x: 40, y: 20 } });
      const box = await shown.boundingBox();
      if (!box) throw new Error('no toast box');
      const [x, y] = [box.x + 40, box.y + 20];
      await page.mouse.down();
      await page.mouse.move(x + dx, y, { steps: 5 });
      await page.mouse.up();
    };

    // A short drag springs back; one past the threshold dismisses.
    await swipe(30);
    // F8 focuses only a toast still on screen (a dismissed one is no longer the toaster's): with
    // focus moved away first, focus coming back proves the short drag did not dismiss it.
    await form.getByLabel(/^First Name/).focus();
    // The pointer still rests on the toast, so its 5 s stay stays held although focus left the
    // toaster (where Fluent alone restarts it: under load the toast then went by itself before F8).
    await expect(page.locator('[data-timer-status]')).toHaveAttribute('data-timer-status', 'paused');
    await page.keyboard.press('F8');
    await expect
      .poll(() => shown.evaluate((el) => el.closest('[tabindex]')?.contains(document.activeElement) ?? false))
      .toBe(true);

    await swipe(70);
    await expect(shown).toHaveCount(0);
  });

  test('readers who ask for less motion see the final figures at once', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    const track = page.locator('#track-record');
    await track.scrollIntoViewIfNeeded();
    const counter = track.getByRole('listitem').filter({ hasText: 'Invested Capital' });
    await expect(counter).toBeVisible();
    // Read at once, not awaited: without motion there is no count-up to wait for.
    expect(await counter.textContent()).toBe('$200M+$200M+Invested Capital');
    await page.locator('#portfolio').scrollIntoViewIfNeeded();
    // No automatic steps: the carousel offers to start them instead.
    await expect(page.getByRole('button', { name: 'Start automatic scrolling' })).toBeVisible();
  });

  test('the first load fetches no map, portal or admin code, and no image below the fold', async ({ page }) => {
    const scripts: string[] = [];
    const images: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      if (r.resourceType() === 'image') images.push(new URL(r.url()).pathname);
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((s) => /leaflet|TileLayer|contact-map|property-map|investor-services|investor-portal|admin/i.test(s))).toEqual(
      [],
    );
    // No property photo (the carousel's) before the reader comes near it.
    expect(images.filter((s) => /\/media\//.test(s))).toEqual([]);
    expect(images.some((s) => /hero/.test(s))).toBe(true);

    // Every picture keeps its box before it loads; all but the hero load lazily. (Leaflet sizes
    // and places its tiles and marker itself, absolutely, so they cannot shift anything.)
    await loadWholePage(page);
    for (const img of await page.getByRole('main').locator('img:not(.leaflet-container img)').all()) {
      await expect(img).toHaveAttribute('width', /\d+/);
      await expect(img).toHaveAttribute('height', /\d+/);
      if (!/hero/.test((await img.getAttribute('src')) ?? '')) await expect(img).toHaveAttribute('loading', 'lazy');
    }
    // The map loaded once its section came near; its marker opens the popup without tiles.
    const marker = page.getByRole('button', { name: `${siteFacts.firmName} corporate office` });
    await marker.click();
    await expect(page.locator('.leaflet-popup')).toContainText(siteFacts.office.street);
  });

  test('has no serious or critical accessibility violation', async ({ page }) => {
    // The heaviest test: every section loaded, then axe over the whole page. On a busy 2-CPU
    // runner that took 35 s (8 s of it launching the browser), past the default 30 s budget.
    test.slow();
    await page.goto('/');
    await loadWholePage(page);
    // Checked at rest: on a busy machine the count-up can outlast any fixed wait.
    await expectFinalFigures(page);
    const results = await axeOf(page).exclude('[data-tabster-dummy]').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

test.describe('home page at 375 px', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('fits the screen, shows one slide at a time and works from the buttons', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'View Our Portfolio' })).toBeInViewport();
    await expect(page.getByRole('link', { name: 'Investor Inquiries' })).toBeInViewport();
    await loadWholePage(page);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(375);

    const carousel = page.getByRole('region', { name: 'Our properties' });
    const slideWidth = await carousel.getByRole('group').first().evaluate((el) => el.getBoundingClientRect().width);
    const viewportWidth = await carousel.evaluate((el) => el.getBoundingClientRect().width);
    expect(slideWidth).toBeGreaterThan(viewportWidth * 0.9);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'Investor Inquiries' }).click();
    await expectScrolledTo(page, 'contact');
  });
});

// Spec section 9: slides take 100 % on mobile, 50 % on medium and 33.3 % on large screens. The
// medium rule used to win on large screens too (Griffel inserts each media query's rules in a
// sheet of its own, in the order the queries are first met), so 1280 px showed two slides.
for (const width of [1280, 1440]) {
  test.describe(`home page at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the carousel shows three whole slides side by side', async ({ page }) => {
      await page.goto('/');
      await page.locator('#portfolio').scrollIntoViewIfNeeded();
      const carousel = page.getByRole('region', { name: 'Our properties' });
      const slides = carousel.getByRole('group');
      // The carousel's chunk and the property list load when the section comes near; slow on a busy machine.
      await expect(slides.nth(2)).toBeVisible({ timeout: 15_000 });
      // Hold it still while measuring.
      await carousel.getByRole('button', { name: 'Pause automatic scrolling' }).click();
      await expect(carousel).toHaveAttribute('data-selected', /^\d+$/);
      await carousel.getByRole('button', { name: 'Next property' }).click();
      await carousel.getByRole('button', { name: 'Previous property' }).click();
      await expect(carousel).toHaveAttribute('data-selected', '0');
      const row = await carousel.locator('> div').first().evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
      for (let i = 0; i < 3; i++) {
        const box = await slides.nth(i).evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
        // A third of the row (each slide carries one gap of padding the row's negative margin takes back).
        expect(box.width).toBeGreaterThan(row.width / 3 - 2);
        expect(box.width).toBeLessThan(row.width / 3 + 24);
        expect(box.right).toBeLessThanOrEqual(row.right + 1);
      }
    });
  });
}
