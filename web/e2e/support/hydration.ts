import type { Locator, Page } from '@playwright/test';

/**
 * Waits until React has hydrated the page the server rendered, up to `target` (by default the
 * page's h1, which the page's own chunk renders): it carries React's fiber. React hydrates a page
 * in slices, in document order, so a later part (the footer) may not be hydrated yet. From then
 * on a click on a link is the app's navigation, not the browser's.
 */
export async function waitForHydration(page: Page, target: string | Locator = 'main h1'): Promise<void> {
  const element = await (typeof target === 'string' ? page.locator(target).first() : target).elementHandle();
  await page.waitForFunction((hydrated) => Object.keys(hydrated).some((key) => key.startsWith('__reactFiber')), element);
}

/**
 * Opens the page of the footer's link `linkName` the way a reader reaches it from another page of
 * the visit: a page whose HTML does not carry the property list (the team page), then the link,
 * once hydrated, so that the app fetches the list itself (its loading text, its failure, its Try
 * again).
 */
export async function arriveByLink(page: Page, linkName: string): Promise<void> {
  await page.goto('/management-team');
  const link = page.getByRole('contentinfo').getByRole('link', { name: linkName, exact: true });
  await waitForHydration(page, link);
  await link.click();
}
