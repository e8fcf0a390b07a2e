import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { loginAnswer, startTotpAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { queuedMailSubjects } from './support/mail';
import { openAdminTab } from './support/admin';
import { signIn } from './support/portal';
import { totpCode } from './support/totp';

// Two-step sign-in (issue 21). Each test opens an investor of its own through the admin API, so
// that turning the second step on never touches the demo accounts other specs sign in with.

// Wrong codes count toward the sign-in lock-out of the client address too: each test is a visitor
// of its own (the e2e server trusts X-Forwarded-For), so repeats and other specs' wrong passwords
// never add up to a lock-out.
// Each test is a whole flow (three sign-ins with argon2, a dozen server round trips): 22–25 s at
// load 15 on 2 cores, over 30 s at load 40 (seven helpers at once), which timed out 13 of 40.
test.describe.configure({ timeout: 90_000 });

test.beforeEach(async ({ page }) => {
  const address = `2001:db8::${randomBytes(8).toString('hex').match(/.{4}/g)?.join(':')}`;
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
});

async function newInvestor(request: APIRequestContext): Promise<string> {
  const admin = await request.post('/api/investor/login', { data: { email: 'admin@example.com', password: demoPassword } });
  const { token } = loginAnswer.parse(await admin.json());
  const email = `two-step-${randomBytes(5).toString('hex')}@example.com`;
  const created = await request.post('/api/admin/create-user', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Tess Twostep', email, role: 'user', password: demoPassword },
  });
  expect(created.status(), await created.text()).toBe(200);
  return email;
}

test('an investor turns on TOTP in Manage Profile, signs out, and signs back in with a code', async ({ page }) => {
  const email = await newInvestor(page.request);
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

  await page.getByRole('button', { name: 'Manage Profile' }).click();
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await expect(page.getByRole('img', { name: /QR code for your authenticator app/ })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const codeField = page.getByRole('textbox', { name: '2. Enter the 6-digit code the app shows' });
  await expect(codeField).toBeFocused();
  await page.screenshot({ path: '/tmp/mfa-shots/setup-desktop.png', fullPage: true });

  await codeField.fill(totpCode(secret));
  await page.getByRole('button', { name: 'Confirm and turn on' }).click();
  const codes = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved my backup codes' }).click();
  await expect(page.getByText('Two-step sign-in is on. 10 backup codes are left.')).toBeVisible();
  expect(await queuedMailSubjects(email)).toContain('Two-step sign-in is now on for your Everest Properties investor portal account');

  await page.getByRole('button', { name: 'Logout' }).click();
  await signIn(page, email);
  const authCode = page.getByRole('textbox', { name: 'Authentication code' });
  await expect(authCode).toBeFocused();
  // The set-up spent this step's code; the app's clock a step ahead gives the next one.
  await authCode.fill(totpCode(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
});

test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('signs in with the second step by keyboard alone, without sideways scrolling', async ({ page }) => {
    const email = await newInvestor(page.request);
    const signedIn = await page.request.post('/api/investor/login', { data: { email, password: demoPassword } });
    const headers = { authorization: `Bearer ${loginAnswer.parse(await signedIn.json()).token}` };
    const { secret } = startTotpAnswer.parse(await (await page.request.post('/api/investor/second-step/totp/start', { headers, data: {} })).json());
    expect((await page.request.post('/api/investor/second-step/totp/confirm', { headers, data: { code: totpCode(secret) } })).status()).toBe(200);

    await page.goto('/investor-services');
    await page.getByRole('textbox', { name: 'Email', exact: true }).focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toBeFocused();
    await page.keyboard.type(demoPassword);
    await page.keyboard.press('Enter');

    const authCode = page.getByRole('textbox', { name: 'Authentication code' });
    await expect(authCode).toBeFocused();
    await page.screenshot({ path: '/tmp/mfa-shots/second-step-375.png', fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // A wrong code keeps the step open with the field focused again.
    await page.keyboard.type('000000');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('toast').getByText('That code is not correct. Please try again.')).toBeVisible();
    await expect(authCode).toBeFocused();
    await page.keyboard.type(totpCode(secret, 1));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

    await page.getByRole('button', { name: 'Manage Profile' }).click();
    await page.getByRole('heading', { name: 'Two-step sign-in' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/mfa-shots/profile-375.png', fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});

test('an administrator removes the second step of an investor who lost their phone', async ({ page }) => {
  const email = await newInvestor(page.request);
  const signedIn = await page.request.post('/api/investor/login', { data: { email, password: demoPassword } });
  const headers = { authorization: `Bearer ${loginAnswer.parse(await signedIn.json()).token}` };
  const { secret } = startTotpAnswer.parse(await (await page.request.post('/api/investor/second-step/totp/start', { headers, data: {} })).json());
  expect((await page.request.post('/api/investor/second-step/totp/confirm', { headers, data: { code: totpCode(secret) } })).status()).toBe(200);

  await openAdminTab(page, 'Users');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Edit Tess Twostep' }).click();
  const editor = page.getByRole('form', { name: 'Edit Tess Twostep' });
  await expect(editor.getByText('Two-step sign-in: on (authenticator app, 10 backup codes left).')).toBeVisible();
  await editor.getByRole('button', { name: 'Remove second step' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove two-step sign-in from Tess Twostep?' });
  await dialog.getByRole('button', { name: 'Remove second step' }).click();
  await expect(page.getByTestId('toast').getByText(`Two-step sign-in was removed from ${email}.`)).toBeVisible();
  await expect(editor.getByText('Two-step sign-in: off.')).toBeVisible();
  expect(await queuedMailSubjects(email)).toContain('An administrator removed two-step sign-in from your Everest Properties investor portal account');

  // The password alone signs the investor in again.
  const again = await page.request.post('/api/investor/login', { data: { email, password: demoPassword } });
  expect(loginAnswer.safeParse(await again.json()).success).toBe(true);
});
