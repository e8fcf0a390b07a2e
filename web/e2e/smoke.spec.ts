import { expect, test } from '@playwright/test';
import { waitForHydration } from './support/hydration';

// The menus are buttons of the app: they open once its code has hydrated the server's page.

test('home renders the navigation bar with the About and Portfolio menus', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('button', { name: 'About' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Portfolio' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Investor Services' })).toHaveAttribute(
    'href',
    '/investor-services',
  );

  await waitForHydration(page, nav.getByRole('button', { name: 'Portfolio' }));
  await nav.getByRole('button', { name: 'Portfolio' }).click();
  await expect(page.getByRole('menuitem', { name: 'Property Map' })).toBeVisible();
});

test('an unknown path answers 404 and shows Page Not Found', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('the menu button opens the slide-out panel with the same links', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page, page.getByRole('button', { name: 'Open navigation menu' }));
    await page.getByRole('button', { name: 'Open navigation menu' }).click();
    const panel = page.getByRole('dialog', { name: 'Site navigation' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Management Team' })).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Investor Services' })).toBeVisible();

    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(375);
  });

  test('closing the panel with Escape or its close button puts focus back on the menu button', async ({ page }) => {
    await page.goto('/');
    const menuButton = page.getByRole('button', { name: 'Open navigation menu' });
    const panel = page.getByRole('dialog', { name: 'Site navigation' });
    await waitForHydration(page, menuButton);

    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect(panel).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(menuButton).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(panel).toBeVisible();
    await panel.getByRole('button', { name: 'Close navigation menu' }).press('Enter');
    await expect(panel).toBeHidden();
    await expect(menuButton).toBeFocused();
  });
});
