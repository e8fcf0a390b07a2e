import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { portalMessages, portalSuccess } from '@everest/core/domain';
import { demoPassword } from '@everest/fixtures';
import { deliveredMailFiles, passwordLinkFromMail, withDatabase } from './support/mail';
import { signIn } from './support/portal';
import { axeOf } from './support/axe';

// The investor portal's door: sign-in, sessions, password reset by e-mail and the profile,
// against the real server (playwright.config.ts) with the demo users. Tests that change an
// account each use an account of their own, so they can run in parallel.

/** The toast showing `text` (a replaced toast may still be fading out beside it). */
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

async function requestResetLink(page: Page, email: string): Promise<string> {
  const before = deliveredMailFiles();
  await page.goto('/investor-services');
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  const panel = page.getByRole('region', { name: 'Password reset' });
  await panel.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await panel.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(panel.getByRole('status')).toHaveText(portalSuccess.resetLinkSent.description);
  await expect(toast(page, portalSuccess.resetLinkSent.title)).toBeVisible();
  return passwordLinkFromMail(email, before);
}

test.describe('signing in', () => {
  const demo = [
    { email: 'admin@example.com', name: 'Avery Whitfield', role: 'Administrator' },
    { email: 'employee@example.com', name: 'Daniel Kim', role: 'Everest Employee' },
    { email: 'investor@example.com', name: 'James Carter', role: 'Investor' },
    { email: 'investor2@example.com', name: 'Sarah Thompson', role: 'Investor' },
  ];

  test('Last login shows the sign-in before this one, so an investor notices one that was not theirs', async ({ page }) => {
    const email = `first.timer.${test.info().repeatEachIndex}@example.com`;
    await withDatabase((db) =>
      db.query(
        `insert into users (email, password_hash, first_name, last_name, created_at, updated_at)
         select $1, password_hash, 'Robin', 'Hale', now(), now() from users where email = 'investor@example.com'
         on conflict (email) do update set last_login_at = null, previous_login_at = null`,
        [email],
      ),
    );
    const lastLogin = page.getByText('Last login', { exact: true }).locator('xpath=following-sibling::dd[1]');
    await signIn(page, email);
    await expect(lastLogin).toHaveText('This is your first sign-in');
    await page.getByRole('button', { name: 'Logout' }).click();
    await signIn(page, email);
    await expect(lastLogin).toHaveText(/^\w{3} \d{1,2}, \d{4}.* Pacific Time$/);
  });

  for (const user of demo) {
    test(`${user.email} signs in and sees the role label ${user.role}`, async ({ page }) => {
      await signIn(page, user.email);
      await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible();
      await expect(toast(page, portalSuccess.loginSuccessful)).toBeVisible();
      await expect(page.getByText(user.role, { exact: true })).toBeVisible();
      await expect(page.getByText(user.email, { exact: true })).toBeVisible();
      // The sign-in before this one: none yet for a user's first, a time after that.
      await expect(page.getByText(/ Pacific Time$|^This is your first sign-in$/)).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Investor Relations Contact' })).toBeVisible();

      const isAdmin = user.role === 'Administrator';
      await expect(page.getByRole('button', { name: 'Admin Panel' })).toHaveCount(isAdmin ? 1 : 0);
      await expect(page.getByRole('button', { name: 'Refresh' })).toHaveCount(isAdmin ? 1 : 0);

      await page.getByRole('button', { name: 'Logout' }).click();
      await expect(page.getByRole('heading', { name: 'Investor Portal' })).toBeVisible();
      expect(await page.evaluate(() => [localStorage.getItem('everest.investorToken'), localStorage.getItem('everest.investorUser')])).toEqual([null, null]);
    });
  }

  test('a wrong password shows the spec toast and stays on the sign-in card', async ({ page }) => {
    await signIn(page, 'investor@example.com', 'Wrong@Password1');
    await expect(toast(page, portalMessages.loginFailed)).toBeVisible();
    await expect(toast(page, portalMessages.loginFailed)).toHaveAttribute('data-variant', 'destructive');
    await expect(page.getByRole('heading', { name: 'Investor Portal' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveValue('');
  });

  test('an empty form asks for the e-mail address first', async ({ page }) => {
    await page.goto('/investor-services');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText(portalMessages.enterEmail)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toBeFocused();
  });

  test('signs in by keyboard alone', async ({ page }) => {
    await page.goto('/investor-services');
    await page.getByRole('textbox', { name: 'Email', exact: true }).focus();
    await page.keyboard.type('investor2@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type(demoPassword);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Welcome, Sarah Thompson' })).toBeFocused();
  });

  test('the stored session is reused on reload, and a refused one is cleared', async ({ page }) => {
    await signIn(page, 'investor@example.com');
    await expect(page.getByRole('heading', { name: 'Welcome, James Carter' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome, James Carter' })).toBeVisible();

    await page.evaluate(() => localStorage.setItem('everest.investorToken', 'forged.token.value'));
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Investor Portal' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('everest.investorToken'))).toBeNull();
  });

  test('an administrator opens the admin panel and refreshes the profile', async ({ page }) => {
    await signIn(page, 'admin@example.com');
    const toggle = page.getByRole('button', { name: 'Admin Panel' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('heading', { name: 'Administration Panel' })).toBeVisible();
    await toggle.click();
    await expect(page.getByRole('heading', { name: 'Administration Panel' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(toast(page, 'Your role: Administrator')).toBeVisible();
  });
});

/**
 * An investor of the test's own, with the demo password, named as given: the product allows 5
 * reset requests per e-mail an hour, so a fixed demo user would be refused from the sixth repeat.
 */
async function ownInvestor(firstName: string, lastName: string): Promise<string> {
  const email = `${firstName}.${lastName}.${randomBytes(4).toString('hex')}@example.com`.toLowerCase();
  await withDatabase((db) =>
    db.query(
      `insert into users (email, password_hash, first_name, last_name, created_at, updated_at)
       select $1, password_hash, $2, $3, now(), now() from users where email = 'investor@example.com'`,
      [email, firstName, lastName],
    ),
  );
  return email;
}

test.describe('password reset', () => {
  // Each test is a visitor of its own address (the e2e server trusts X-Forwarded-For): the
  // product allows 20 reset requests per address an hour, which repeats would reach.
  test.beforeEach(async ({ context }) => {
    const address = `2001:db8::${randomBytes(8).toString('hex').match(/.{4}/g)?.join(':')}`;
    await context.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
  });

  test('the whole reset flow, with the link from the delivered e-mail', async ({ page }) => {
    const email = await ownInvestor('Margaret', 'Chen');
    const link = await requestResetLink(page, email);
    expect(new URL(link).origin).toBe(new URL(page.url()).origin);

    await page.goto(link);
    // The token leaves the address bar before anything else happens.
    await expect(page).toHaveURL(/\/investor-services$/);
    const panel = page.getByRole('region', { name: 'Password reset' });
    await expect(panel.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await expect(panel.getByText('For Margaret Chen.')).toBeVisible();

    const update = panel.getByRole('button', { name: 'Update Password' });
    const alert = panel.getByRole('alert');
    await update.click();
    await expect(alert).toHaveText(portalMessages.fillInAllFields);
    await panel.getByLabel(/^New password/).fill('short');
    await panel.getByLabel(/^Confirm new password/).fill('short');
    await update.click();
    await expect(alert).toHaveText(
      'Password must contain at least 8 characters, one uppercase letter, one number and one special character (@$!%*?&)',
    );
    await panel.getByLabel(/^New password/).fill('Summit@2026');
    await panel.getByLabel(/^Confirm new password/).fill('Summit@2027');
    await update.click();
    await expect(alert).toHaveText(portalMessages.passwordsDoNotMatch);

    await panel.getByLabel(/^Confirm new password/).fill('Summit@2026');
    await update.click();
    await expect(toast(page, portalSuccess.passwordReset.title)).toBeVisible();
    await expect(panel).toHaveCount(0);

    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Summit@2026');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Margaret Chen' })).toBeVisible();
  });

  test('an expired link shows Invalid or Expired Reset Link, with a way back to request mode', async ({ page }) => {
    const email = await ownInvestor('Robert', 'Alvarez');
    const link = await requestResetLink(page, email);
    await withDatabase((db) =>
      db.query(
        `update password_reset_tokens set expires_at = now() - interval '1 minute'
         where user_id = (select id from users where email = $1)`,
        [email],
      ),
    );
    await page.goto(link);
    await expect(page).toHaveURL(/\/investor-services$/);
    await expect(page.getByRole('heading', { name: portalMessages.invalidResetLink.title })).toBeVisible();
    await expect(page.getByText(portalMessages.invalidResetLink.description)).toBeVisible();

    await page.getByRole('button', { name: 'Request New Reset Link' }).click();
    const panel = page.getByRole('region', { name: 'Password reset' });
    await expect(panel.getByRole('button', { name: 'Send Reset Link' })).toBeVisible();
  });

  test('a used link shows Invalid or Expired Reset Link', async ({ page }) => {
    const link = await requestResetLink(page, await ownInvestor('John', 'Smith'));
    const token = new URL(link).searchParams.get('resetToken') ?? '';
    const res = await page.request.post('/api/investor/reset-password', {
      data: { token, password: 'Juniper@2026', confirmPassword: 'Juniper@2026' },
    });
    expect(res.status()).toBe(200);

    await page.goto(link);
    await expect(page.getByRole('heading', { name: portalMessages.invalidResetLink.title })).toBeVisible();
  });

  test('request mode asks for an address, and Cancel closes the panel and clears it', async ({ page }) => {
    await page.goto('/investor-services');
    const toggle = page.getByRole('button', { name: 'Forgot your password?' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const panel = page.getByRole('region', { name: 'Password reset' });
    await panel.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(panel.getByText(portalMessages.enterEmail)).toBeVisible();
    await panel.getByRole('textbox', { name: 'Email', exact: true }).fill('someone@example.com');
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await expect(panel).toHaveCount(0);
    await toggle.click();
    await expect(panel.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue('');
  });
});

test.describe('profile', () => {
  test('updates the profile and shows it in the header, also after a reload', async ({ page }) => {
    await signIn(page, 'priya.natarajan@example.com');
    await page.getByRole('button', { name: 'Manage Profile' }).click();
    const card = page.locator('#manage-profile');
    await expect(card.getByLabel('Entity / Organization')).toHaveAttribute('maxlength', '200');

    const submit = card.getByRole('button', { name: 'Update Profile' });
    await card.getByRole('textbox', { name: 'Email', exact: true }).fill('');
    await expect(submit).toBeDisabled();
    await card.getByRole('textbox', { name: 'Email', exact: true }).fill('Priya.Natarajan@Example.com');

    await card.getByLabel('First name').fill('Priya');
    await card.getByLabel('Last name').fill('Natarajan-Rao');
    await card.getByLabel('Entity / Organization').fill('Natarajan Family Office');
    await card.getByLabel('City').fill('Thousand Oaks');
    await submit.click();
    await expect(toast(page, portalSuccess.profileUpdated.title)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome, Priya Natarajan-Rao' })).toBeVisible();
    await expect(page.getByText('Natarajan Family Office', { exact: true })).toBeVisible();
    await expect(card.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue('priya.natarajan@example.com');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome, Priya Natarajan-Rao' })).toBeVisible();
  });

  test('shows every password-rule message of Change Password, in the spec order', async ({ page }) => {
    await signIn(page, 'employee@example.com');
    await page.getByRole('button', { name: 'Manage Profile' }).click();
    const card = page.locator('#manage-profile');
    const change = card.getByRole('button', { name: 'Update Password' });
    const newPassword = card.getByLabel(/^New password/);
    const confirm = card.getByLabel(/^Confirm new password/);
    await expect(card.getByLabel(/^Current password/)).toBeVisible();

    await change.click();
    await expect(toast(page, portalMessages.noChanges.title)).toBeVisible();
    await expect(toast(page, portalMessages.noChanges.description)).toBeVisible();

    await newPassword.fill('Everest@2026');
    await confirm.fill('Everest@2027');
    await change.click();
    await expect(toast(page, portalMessages.newPasswordsDoNotMatch)).toHaveAttribute('data-variant', 'destructive');

    const rules: [string, string][] = [
      ['Ev@1a', 'Password must contain at least 8 characters'],
      ['EVEREST@2026', 'Password must contain one lowercase letter'],
      ['everest@2026', 'Password must contain one uppercase letter'],
      ['Everest@abcd', 'Password must contain one number'],
      ['Everest2026', 'Password must contain one special character (@$!%*?&)'],
      ['everest', 'Password must contain at least 8 characters, one uppercase letter, one number and one special character (@$!%*?&)'],
    ];
    for (const [password, message] of rules) {
      await newPassword.fill(password);
      await confirm.fill(password);
      await change.click();
      await expect(toast(page, message)).toContainText(portalMessages.passwordRequirementsNotMet);
    }

    // A wrong current password is refused by the server with the spec's sentence.
    await card.getByLabel(/^Current password/).fill('Not@MyPassword1');
    await newPassword.fill('Everest@2026');
    await confirm.fill('Everest@2026');
    await change.click();
    await expect(toast(page, portalMessages.changePasswordFailed)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome, Daniel Kim' })).toBeVisible();
  });

  test('an administrator gives the current password too (DECISIONS.md) and stays signed in', async ({ page }) => {
    // An administrator of its own (with the demo password's hash), so that the built-in one keeps
    // the demo password for the other tests running in parallel.
    await withDatabase((db) =>
      db.query(
        `insert into users (email, password_hash, first_name, last_name, role, created_at, updated_at)
         select 'second.admin@example.com', password_hash, 'Taylor', 'Reed', 'administrator', now(), now()
         from users where email = 'admin@example.com'
         on conflict (email) do update set password_hash = excluded.password_hash`,
      ),
    );
    await signIn(page, 'second.admin@example.com');
    await page.getByRole('button', { name: 'Manage Profile' }).click();
    const card = page.locator('#manage-profile');
    await card.getByLabel(/^New password/).fill('Sandia@2026');
    await card.getByLabel(/^Confirm new password/).fill('Sandia@2026');
    await card.getByRole('button', { name: 'Update Password' }).click();
    await expect(toast(page, portalMessages.enterCurrentPassword)).toBeVisible();
    await card.getByLabel(/^Current password/).fill(demoPassword);
    await card.getByLabel(/^Confirm new password/).fill('Sandia@2026');
    await card.getByRole('button', { name: 'Update Password' }).click();
    await expect(toast(page, portalSuccess.passwordChanged.title)).toBeVisible();
    // The session that changed the password goes on with its fresh token.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome, Taylor Reed' })).toBeVisible();
  });
});

test.describe('at 375 px, accessibility', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  const noHorizontalScroll = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  test('the signed-out view and the reset panel fit and pass axe', async ({ page }) => {
    await page.goto('/investor-services');
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('region', { name: 'Password reset' })).toBeVisible();
    await expect(page.getByText('(626) 555-0120')).toBeVisible();
    await expect(page.getByRole('link', { name: 'investors@example.com' })).toHaveAttribute('href', 'mailto:investors@example.com');
    await noHorizontalScroll(page);
    const results = await axeOf(page).include('main').exclude('[data-tabster-dummy]').analyze();
    expect(results.violations).toEqual([]);
  });

  test('the signed-in view with Manage Profile open fits and passes axe', async ({ page }) => {
    await signIn(page, 'investor2@example.com');
    await page.getByRole('button', { name: 'Manage Profile' }).click();
    await expect(page.locator('#manage-profile')).toBeVisible();
    await noHorizontalScroll(page);
    const results = await axeOf(page).include('main').exclude('[data-tabster-dummy]').analyze();
    expect(results.violations).toEqual([]);
  });
});
