import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './support/portal';

// The portal's layout at the widths investors use: nothing cut off on a phone, fields that
// line up on a desktop (issue 14).

const documentsCard = (page: Page) => page.getByRole('heading', { name: 'Your Documents' }).locator('xpath=ancestor::*[contains(@class,"fui-Card")][1]');

/** Whether the element's box lies inside the container's and none of its text is cut off. */
async function fitsInside(element: Locator, container: Locator) {
  const [box, outer] = await Promise.all([element.boundingBox(), container.boundingBox()]);
  if (!box || !outer) throw new Error('both are rendered');
  const clipped = await element.evaluate((el) =>
    [el, ...el.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible'),
  );
  return {
    inside: box.x >= outer.x - 0.5 && box.x + box.width <= outer.x + outer.width + 0.5,
    clipped,
  };
}

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('both document tabs show their whole label and count, and the page does not scroll sideways', async ({ page }) => {
    await signIn(page, 'investor@example.com');
    const card = documentsCard(page);
    const tabs = card.getByRole('tab');
    await expect(tabs).toHaveCount(2);
    await expect(tabs.first()).toHaveAccessibleName(/^Property Documents \(\d+\)$/);
    await expect(tabs.nth(1)).toHaveAccessibleName(/^Personal Documents \(\d+\)$/);
    for (const tab of await tabs.all()) {
      await expect(tab).toBeVisible();
      expect(await fitsInside(tab, card)).toEqual({ inside: true, clipped: false });
    }
    // The tab list still moves between the tabs with the arrow keys.
    await tabs.first().focus();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
    expect(await fitsInside(tabs.nth(1), card)).toEqual({ inside: true, clipped: false });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('the two new-password fields of Manage Profile have the same height and top', async ({ page }) => {
    await signIn(page, 'investor@example.com');
    await page.getByRole('button', { name: 'Manage Profile' }).click();
    const card = page.locator('#manage-profile');
    // The boxes the reader sees: Fluent's Input frame around each <input>.
    const frame = 'xpath=ancestor::*[contains(@class,"fui-Input")][1]';
    const fresh = card.getByLabel('New password', { exact: true }).locator(frame);
    const confirm = card.getByLabel('Confirm new password', { exact: true }).locator(frame);
    await expect(fresh).toBeVisible();
    await expect(confirm).toBeVisible();
    // Side by side in the two-column grid; the hint under 'New password' must not stretch its neighbour.
    const [a, b] = await Promise.all([fresh.boundingBox(), confirm.boundingBox()]);
    if (!a || !b) throw new Error('both inputs are rendered');
    expect(b.x).toBeGreaterThan(a.x + a.width);
    expect(Math.abs(a.height - b.height)).toBeLessThanOrEqual(1);
    expect(Math.abs(a.y - b.y)).toBeLessThanOrEqual(1);
  });
});
