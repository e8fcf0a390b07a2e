import { expect, test, type Page } from '@playwright/test';
import { waitForHydration } from './support/hydration';
import { axeOf } from './support/axe';

/** Serious and critical axe findings; Fluent's focus guards are invisible helpers, not content. */
async function seriousAxeViolations(page: Page) {
  const results = await axeOf(page)
    // WCAG 2.2's target size (2.5.8) is off by default in axe; Lighthouse checks it.
    .options({ rules: { 'target-size': { enabled: true } } }).exclude('[data-tabster-dummy]').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

const main = (page: Page) => page.getByRole('main');

// Spec: 'Page Not Found' with links to Home, Properties, Property Map, Go Back, the investor
// portal, transaction history, investment strategy, leadership team, contact and property
// portfolio, plus a Contact Us button.
const links: { label: string; name: RegExp; href: string }[] = [
  { label: 'Home', name: /^Home$/, href: '/' },
  { label: 'Properties', name: /^Properties$/, href: '/properties' },
  { label: 'Property Map', name: /^Property Map$/, href: '/property-map' },
  { label: 'Investor Portal', name: /^Investor Portal/, href: '/investor-services' },
  { label: 'Transaction History', name: /^Transaction History/, href: '/significant-transactions' },
  { label: 'Investment Strategy', name: /^Investment Strategy/, href: '/competitive-advantage' },
  { label: 'Leadership Team', name: /^Leadership Team/, href: '/management-team' },
  { label: 'Contact', name: /^Contact(?! Us)/, href: '/#contact' },
  { label: 'Property Portfolio', name: /^Property Portfolio/, href: '/portfolio' },
];

test.describe('404 page', () => {
  test('answers 404 with Page Not Found and every link of the spec', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    for (const { label, name, href } of links) {
      await expect(main(page).getByRole('link', { name }), label).toHaveAttribute('href', href);
    }
    await expect(main(page).getByRole('button', { name: 'Go Back' })).toBeVisible();
    await expect(main(page).getByRole('link', { name: 'Contact Us' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  for (const { label, name, href } of links.filter((link) => !link.href.includes('#'))) {
    test(`the ${label} link opens ${href}`, async ({ page }) => {
      await page.goto('/gone');
      await main(page).getByRole('link', { name }).click();
      await expect(page).toHaveURL(new RegExp(`${href.replace(/[?]/g, '\\$&')}$`));
      await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toHaveCount(0);
    });
  }

  test('Contact and Contact Us go to / and scroll to the contact section', async ({ page }) => {
    await page.goto('/gone');
    await main(page).getByRole('link', { name: /^Contact(?! Us)/ }).click();
    // The app's navigation ends at /, the browser's (a click before hydration) at /#contact.
    await expect(page).toHaveURL(/\/(#contact)?$/);
    await expect(page.locator('#contact')).toBeInViewport();

    await page.goto('/gone-again');
    await main(page).getByRole('link', { name: 'Contact Us' }).click();
    await expect(page).toHaveURL(/\/(#contact)?$/);
    await expect(page.locator('#contact')).toBeInViewport();
  });

  // The unit test of the 404 page covers Go Back after an in-app navigation (memory router).
  test('Go Back on the first page of the visit goes home rather than leave the site', async ({ page }) => {
    await page.goto('/gone');
    // A button of the app: it works once the code has hydrated the server's page.
    await waitForHydration(page, main(page).getByRole('button', { name: 'Go Back' }));
    await main(page).getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  // A mistyped address is a fresh load of the app, yet the page before it is ours: Go Back
  // returns there as the browser's Back does (it used to go home).
  test('Go Back after a mistyped address returns to the page before it', async ({ page }) => {
    await page.goto('/management-team');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto('/management-tem');
    await waitForHydration(page, main(page).getByRole('button', { name: 'Go Back' }));
    await main(page).getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/management-team$/);
  });

  test.describe('at 375 px', () => {
    test.use({ viewport: { width: 375, height: 800 } });

    test('fits the screen', async ({ page }) => {
      await page.goto('/gone');
      await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      for (const { name } of links) await expect(main(page).getByRole('link', { name })).toBeVisible();
      expect(await seriousAxeViolations(page)).toEqual([]);
    });
  });
});
