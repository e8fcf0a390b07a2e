import { expect, type Page } from '@playwright/test';

/**
 * Waits until React has hydrated the page the server rendered: the element (by default the
 * page's h1, which the page's own chunk renders) carries React's fiber. From then on a click on a
 * link is the app's navigation, not the browser's.
 */
export async function waitForHydration(page: Page, selector = 'main h1'): Promise<void> {
  await page.waitForFunction(
    (sel) => {
      const element = document.querySelector(sel);
      return element !== null && Object.keys(element).some((key) => key.startsWith('__reactFiber'));
    },
    selector,
  );
}

/**
 * Opens the footer link `linkName`'s page the way a reader reaches it from another page of the visit: a page whose HTML does
 * not carry the property list (the team page), then the footer's link, so that the app fetches
 * the list itself (its loading text, its failure, its Try again). It waits for the link itself to
 * be hydrated: React hydrates the page in slices, the page's h1 before the footer.
 */
export async function arriveByLink(page: Page, linkName: string): Promise<void> {
  await page.goto('/management-team');
  const link = page.getByRole('contentinfo').getByRole('link', { name: linkName, exact: true });
  await expect
    .poll(() => link.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber'))))
    .toBe(true);
  await link.click();
}
