import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { loginAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { queuedMailSubjects } from './support/mail';
import { signIn } from './support/portal';
import { totpCode } from '@everest/server/testing/totp';

// Passkeys as the second step (issue 21), with Chromium's virtual authenticator standing in for
// the device's screen lock: it holds the real key pair, signs real challenges, and says the user
// was verified. Each test has an investor and a client address of its own (see portal-two-step).

// Each test is a whole flow (three sign-ins with argon2, a dozen server round trips): 22–25 s at
// load 15 on 2 cores, over 30 s at load 40 (seven helpers at once), which timed out 13 of 40.
test.describe.configure({ timeout: 90_000 });

const shots = '/tmp/shots-steps33';
mkdirSync(shots, { recursive: true });

test.beforeEach(async ({ page }) => {
  const address = `2001:db8::${randomBytes(8).toString('hex').match(/.{4}/g)?.join(':')}`;
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
});

async function newInvestor(request: APIRequestContext): Promise<string> {
  const admin = await request.post('/api/investor/login', { data: { email: 'admin@example.com', password: demoPassword } });
  const { token } = loginAnswer.parse(await admin.json());
  const email = `passkey-${randomBytes(5).toString('hex')}@example.com`;
  const created = await request.post('/api/admin/create-user', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Pat Passkey', email, role: 'user', password: demoPassword },
  });
  expect(created.status(), await created.text()).toBe(200);
  return email;
}

/** A platform authenticator with user verification, answering every prompt at once. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
}

test('an investor registers a passkey in Manage Profile, signs out, and signs back in with it', async ({ page }) => {
  const authenticator = await virtualAuthenticator(page);
  const email = await newInvestor(page.request);
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

  await page.getByRole('button', { name: 'Manage Profile' }).click();
  await page.getByRole('textbox', { name: 'Name of the new passkey' }).fill('This laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  // A session alone does not add a passkey (issue 33): the password first, then the device's prompt.
  const prompt = page.getByRole('dialog', { name: 'Add the passkey "This laptop"' });
  await prompt.getByRole('textbox', { name: 'Current password' }).fill(demoPassword);
  await prompt.getByRole('button', { name: 'Continue' }).click();
  // The first second step of the account: its backup codes, shown once.
  await expect(page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem')).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved my backup codes' }).click();
  const passkeys = page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
  await expect(passkeys).toHaveCount(1);
  await expect(passkeys.first()).toContainText('This laptop');
  await expect(passkeys.first()).toContainText('not used yet');
  await expect(page.getByText('Two-step sign-in is on. 10 backup codes are left.')).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(1);
  expect(await queuedMailSubjects(email)).toContain('A passkey was added to your Everest Properties investor portal account');
  await page.getByRole('heading', { name: 'Two-step sign-in' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/profile-1280.png`, fullPage: true });

  await page.getByRole('button', { name: 'Logout' }).click();
  await signIn(page, email);
  const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
  await expect(usePasskey).toBeFocused();
  await page.screenshot({ path: `${shots}/sign-in-1280.png` });
  await usePasskey.click();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  expect((await authenticator.credentials())[0]?.signCount).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Manage Profile' }).click();
  await expect(page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem').first()).toContainText('last used');
});

test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('adds, uses and removes a passkey by keyboard alone, without sideways scrolling', async ({ page }) => {
    await virtualAuthenticator(page);
    const email = await newInvestor(page.request);
    await signIn(page, email);
    await page.getByRole('button', { name: 'Manage Profile' }).click();

    const name = page.getByRole('textbox', { name: 'Name of the new passkey' });
    await name.focus();
    await page.keyboard.type('Phone');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Add the passkey "Phone"' }).getByRole('textbox', { name: 'Current password' })).toBeFocused();
    await page.keyboard.type(demoPassword);
    await page.keyboard.press('Enter');
    const saved = page.getByRole('button', { name: 'I have saved my backup codes' });
    await expect(page.getByRole('heading', { name: 'Your backup codes' })).toBeFocused();
    for (const next of ['Copy codes', 'Download codes']) {
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: next })).toBeFocused();
    }
    await page.keyboard.press('Tab');
    await expect(saved).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem')).toHaveCount(1);
    await page.getByRole('heading', { name: 'Two-step sign-in' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/profile-375.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // Signing in: after the password, the passkey button has the focus; Enter uses it.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.goto('/investor-services');
    await page.getByRole('textbox', { name: 'Email', exact: true }).focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(demoPassword);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Use a passkey' })).toBeFocused();
    await page.screenshot({ path: `${shots}/sign-in-375.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();

    // Removing asks for the password again; Escape closes the dialog and gives the focus back.
    await page.getByRole('button', { name: 'Manage Profile' }).click();
    const remove = page.getByRole('button', { name: 'Remove Phone' });
    await remove.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Remove the passkey "Phone"?' });
    await expect(dialog.getByRole('textbox', { name: 'Current password' })).toBeFocused();
    await page.screenshot({ path: `${shots}/remove-375.png` });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(remove).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('textbox', { name: 'Current password' })).toBeFocused();
    await page.keyboard.type(demoPassword);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('toast').getByText('The passkey "Phone" is removed, and two-step sign-in is off.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Turn on two-step sign-in' })).toBeVisible();
    expect(await queuedMailSubjects(email)).toContain('A passkey was removed from your Everest Properties investor portal account');
  });
});

test('an investor removes the authenticator app on its own: the passkey stays and still signs in', async ({ page }) => {
  await virtualAuthenticator(page);
  const email = await newInvestor(page.request);
  await signIn(page, email);
  await page.getByRole('button', { name: 'Manage Profile' }).click();

  await page.getByRole('textbox', { name: 'Name of the new passkey' }).fill('Laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const addPrompt = page.getByRole('dialog', { name: 'Add the passkey "Laptop"' });
  await addPrompt.getByRole('textbox', { name: 'Current password' }).fill(demoPassword);
  await addPrompt.getByRole('button', { name: 'Continue' }).click();
  const codeItems = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
  await expect(codeItems).toHaveCount(10);
  const backupCodes = await codeItems.allInnerTexts();
  await page.getByRole('button', { name: 'I have saved my backup codes' }).click();

  // The account has a second step now, so a backup code may stand for the password.
  await page.getByRole('button', { name: 'Add an authenticator app' }).click();
  const startPrompt = page.getByRole('dialog', { name: 'Add an authenticator app' });
  await startPrompt.getByRole('button', { name: 'Use a code instead' }).click();
  await startPrompt.getByRole('textbox', { name: 'Code from your authenticator app, or a backup code' }).fill(backupCodes[0] ?? '');
  await startPrompt.getByRole('button', { name: 'Continue' }).click();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  await page.getByRole('textbox', { name: '2. Enter the 6-digit code the app shows' }).fill(totpCode(secret));
  await page.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem')).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved my backup codes' }).click();

  // Each method with its own Remove.
  const app = page.getByRole('list', { name: 'Your authenticator app' });
  await expect(app).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem')).toHaveCount(1);
  await page.getByRole('heading', { name: 'Two-step sign-in' }).scrollIntoViewIfNeeded();
  await page.locator('section[aria-labelledby="two-step-title"]').screenshot({ path: `${shots}/both-methods-1280.png` });
  await page.setViewportSize({ width: 375, height: 740 });
  await page.getByRole('heading', { name: 'Two-step sign-in' }).scrollIntoViewIfNeeded();
  await page.locator('section[aria-labelledby="two-step-title"]').screenshot({ path: `${shots}/both-methods-375.png` });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 720 });

  const removeApp = page.getByRole('button', { name: 'Remove the authenticator app' });
  await removeApp.click();
  const removePrompt = page.getByRole('dialog', { name: 'Remove the authenticator app?' });
  await expect(removePrompt.getByText('Your passkeys and backup codes still will.')).toBeVisible();
  await removePrompt.getByRole('textbox', { name: 'Current password' }).fill(demoPassword);
  await removePrompt.getByRole('button', { name: 'Remove authenticator app' }).click();
  await expect(page.getByTestId('toast').getByText('The authenticator app is removed.')).toBeVisible();
  await expect(app).toBeHidden();
  await expect(page.getByRole('button', { name: 'Add an authenticator app' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText('Two-step sign-in is on. 10 backup codes are left.')).toBeVisible();
  expect(await queuedMailSubjects(email)).toContain('The authenticator app was removed from your Everest Properties investor portal account');

  await page.getByRole('button', { name: 'Logout' }).click();
  await signIn(page, email);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
});
