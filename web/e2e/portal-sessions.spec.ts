import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { loginAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { signIn } from './support/portal';

// Manage Profile's 'Signed-in devices' (issue 33): each test has an investor of its own and a
// client address per browser, so that runs side by side (and --repeat-each) never meet.

test.describe.configure({ timeout: 90_000 });

const shots = '/tmp/shots-sessions33';
mkdirSync(shots, { recursive: true });

const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const windowsChrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const freshAddress = () => `2001:db8::${randomBytes(8).toString('hex').match(/.{4}/g)?.join(':')}`;

async function newInvestor(request: APIRequestContext): Promise<string> {
  const admin = await request.post('/api/investor/login', { data: { email: 'admin@example.com', password: demoPassword } });
  const { token } = loginAnswer.parse(await admin.json());
  const email = `sessions-${randomBytes(5).toString('hex')}@example.com`;
  const created = await request.post('/api/admin/create-user', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Sam Sessions', email, role: 'user', password: demoPassword },
  });
  expect(created.status(), await created.text()).toBe(200);
  return email;
}

/** A browser of its own: its own storage, User-Agent and client address. */
async function device(browser: Browser, options: { userAgent?: string; viewport?: { width: number; height: number } } = {}) {
  const address = freshAddress();
  const context = await browser.newContext({ ...options, extraHTTPHeaders: { 'X-Forwarded-For': address } });
  return { page: await context.newPage(), address, close: () => context.close() };
}

async function openProfile(page: Page) {
  await page.getByRole('button', { name: 'Manage Profile' }).click();
  return page.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem');
}

test('an investor sees both signed-in browsers and signs out everywhere else; the other browser is back at the sign-in form', async ({ browser }) => {
  const laptop = await device(browser, { userAgent: windowsChrome, viewport: { width: 1280, height: 900 } });
  const phone = await device(browser, { userAgent: iphone });
  try {
    const email = await newInvestor(laptop.page.request);
    await signIn(phone.page, email);
    await expect(phone.page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
    await signIn(laptop.page, email);
    await expect(laptop.page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

    const sessions = await openProfile(laptop.page);
    await expect(sessions).toHaveCount(2);
    await expect(sessions.nth(0)).toContainText('Chrome on Windows');
    await expect(sessions.nth(0)).toContainText('This device');
    await expect(sessions.nth(0)).toContainText(`${laptop.address} · Active now`);
    await expect(sessions.nth(1)).toContainText('Safari on iPhone');
    await expect(sessions.nth(1)).toContainText(`${phone.address} · Last used`);
    await expect(sessions.nth(1)).not.toContainText('This device');
    await expect(sessions.nth(0).getByRole('button', { name: /^Sign out/ })).toHaveCount(0);
    await laptop.page.getByRole('heading', { name: 'Signed-in devices' }).scrollIntoViewIfNeeded();
    await laptop.page.screenshot({ path: `${shots}/sessions-1280.png`, fullPage: true });

    await laptop.page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    const dialog = laptop.page.getByRole('dialog', { name: 'Sign out everywhere else?' });
    await expect(dialog).toContainText('The other device signed in to your account will be signed out at once.');
    await laptop.page.screenshot({ path: `${shots}/sessions-dialog-1280.png` });
    await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(laptop.page.getByTestId('toast').getByText('Signed out of 1 other session.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(sessions).toHaveCount(1);
    await expect(laptop.page.getByText('No other device is signed in.')).toBeVisible();
    await expect(laptop.page.getByRole('heading', { name: 'Signed-in devices' })).toBeFocused();

    // The phone's next action meets the ended session and lands on the sign-in form.
    await phone.page.getByRole('button', { name: 'Manage Profile' }).click();
    await expect(phone.page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(phone.page.getByRole('heading', { name: 'Your Documents' })).toBeHidden();
    // The laptop stays signed in.
    await laptop.page.reload();
    await expect(laptop.page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  } finally {
    await laptop.close();
    await phone.close();
  }
});

test.describe('on a 375 px phone, by keyboard alone', () => {
  test('signs out one other device, then all the others after a confirmation that Escape closes', async ({ browser }) => {
    const phone = await device(browser, { viewport: { width: 375, height: 740 }, userAgent: iphone });
    const elsewhere = await device(browser, { userAgent: windowsChrome });
    const third = await device(browser);
    try {
      const email = await newInvestor(phone.page.request);
      await signIn(elsewhere.page, email);
      await expect(elsewhere.page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
      await signIn(third.page, email);
      await expect(third.page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

      await phone.page.goto('/investor-services');
      await phone.page.getByRole('textbox', { name: 'Email', exact: true }).focus();
      await phone.page.keyboard.type(email);
      await phone.page.keyboard.press('Tab');
      await phone.page.keyboard.type(demoPassword);
      await phone.page.keyboard.press('Enter');
      await expect(phone.page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
      await phone.page.getByRole('button', { name: 'Manage Profile' }).focus();
      await phone.page.keyboard.press('Enter');
      const sessions = phone.page.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem');
      await expect(sessions).toHaveCount(3);
      await expect(sessions.nth(0)).toContainText('Safari on iPhone');
      await expect(sessions.nth(0)).toContainText('This device');
      await phone.page.getByRole('heading', { name: 'Signed-in devices' }).scrollIntoViewIfNeeded();
      await phone.page.screenshot({ path: `${shots}/sessions-375.png`, fullPage: true });
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      // From the section's heading, Tab reaches each other device's 'Sign out', most recently used first.
      await phone.page.getByRole('heading', { name: 'Signed-in devices' }).focus();
      await phone.page.keyboard.press('Tab');
      await expect(sessions.nth(1).getByRole('button', { name: /^Sign out/ })).toBeFocused();
      await phone.page.keyboard.press('Tab');
      const signOutWindows = sessions.nth(2).getByRole('button', { name: /^Sign out Chrome on Windows/ });
      await expect(signOutWindows).toBeFocused();
      await phone.page.keyboard.press('Enter');
      await expect(phone.page.getByTestId('toast').getByText('That session has been signed out.')).toBeVisible();
      await expect(sessions).toHaveCount(2);
      await expect(phone.page.getByRole('heading', { name: 'Signed-in devices' })).toBeFocused();

      // From the heading: the remaining device's 'Sign out', then 'Sign out everywhere else'.
      const everywhere = phone.page.getByRole('button', { name: 'Sign out everywhere else' });
      await phone.page.keyboard.press('Tab');
      await expect(sessions.nth(1).getByRole('button', { name: /^Sign out/ })).toBeFocused();
      await phone.page.keyboard.press('Tab');
      await expect(everywhere).toBeFocused();
      await phone.page.keyboard.press('Enter');
      const dialog = phone.page.getByRole('dialog', { name: 'Sign out everywhere else?' });
      await expect(dialog).toBeVisible();
      await phone.page.screenshot({ path: `${shots}/sessions-dialog-375.png` });
      await phone.page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(everywhere).toBeFocused();
      await expect(sessions).toHaveCount(2);

      await phone.page.keyboard.press('Enter');
      await expect(dialog).toBeVisible();
      // The dialog opens on its first button, the confirmation.
      await expect(dialog.getByRole('button', { name: 'Sign out everywhere else' })).toBeFocused();
      await phone.page.keyboard.press('Enter');
      await expect(phone.page.getByTestId('toast').getByText('Signed out of 1 other session.')).toBeVisible();
      await expect(sessions).toHaveCount(1);
      await expect(phone.page.getByRole('heading', { name: 'Signed-in devices' })).toBeFocused();
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      // Both other browsers are signed out: their next action shows the sign-in form.
      for (const other of [elsewhere.page, third.page]) {
        await other.getByRole('button', { name: 'Manage Profile' }).click();
        await expect(other.getByRole('button', { name: 'Sign In' })).toBeVisible();
      }
    } finally {
      await phone.close();
      await elsewhere.close();
      await third.close();
    }
  });
});
