import { expect, test, type Page } from '@playwright/test';
import { portalMessages, portalSuccess } from '@everest/core/domain';
import { demoPassword } from '@everest/fixtures';
import { deliveredMailFiles, deliveredMails, withDatabase } from './support/mail';
import { signIn } from './support/portal';
import { axeOf } from './support/axe';

// Issue 33 gap 4: a session left open must not move the account to another address. A new e-mail
// address asks for the current password, waits for the link sent to it, and the old address can
// undo the change. Each test uses accounts of its own, so they run in parallel and repeat.

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

/** An investor of the test's own, with the demo password. */
async function newInvestor(name: string): Promise<string> {
  const info = test.info();
  const email = `${name}.${info.workerIndex}.${info.repeatEachIndex}.${Date.now()}@example.com`;
  await withDatabase((db) =>
    db.query(
      `insert into users (email, password_hash, first_name, last_name, created_at, updated_at)
       select $1, password_hash, 'Jordan', 'Mover', now(), now() from users where email = 'investor@example.com'`,
      [email],
    ),
  );
  return email;
}

/** The link of the given kind in the newest e-mail to `email` not among `before`, once delivered. */
async function linkFromMail(email: string, param: 'confirmEmail' | 'undoEmail', before: readonly string[]): Promise<string> {
  const pattern = new RegExp(`https?://[^\\s"<>]+/investor-services\\?${param}=[A-Za-z0-9_-]+`);
  let link: string | undefined;
  await expect
    .poll(() => (link = deliveredMails(email, before).map((text) => pattern.exec(text)?.[0]).find(Boolean)) !== undefined, {
      message: `an e-mail with a ${param} link to ${email}`,
      timeout: 20_000,
    })
    .toBe(true);
  if (!link) throw new Error('unreachable');
  return link;
}

async function openManageProfile(page: Page) {
  await page.getByRole('button', { name: 'Manage Profile' }).click();
  return page.locator('#manage-profile');
}

const noHorizontalScroll = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a new email asks for the password, waits for its link, and the old address can undo it', async ({ page, browser }) => {
      // Two browsers, four argon2 checks and three e-mails delivered by the outbox worker.
      test.slow();
      const email = await newInvestor('changer');
      const newEmail = `new.${email}`;
      const before = deliveredMailFiles();
      await signIn(page, email);
      const card = await openManageProfile(page);

      await card.getByRole('textbox', { name: 'Email', exact: true }).fill(newEmail);
      await card.getByRole('button', { name: 'Update Profile' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change your email address' });
      await expect(dialog).toContainText(`We will send a link to ${newEmail}`);
      await dialog.getByRole('button', { name: 'Send Link' }).click();
      await expect(dialog.getByText(portalMessages.enterCurrentPassword)).toBeVisible();
      await dialog.getByLabel(/^Current password/).fill('Not@MyPassword1');
      await dialog.getByRole('button', { name: 'Send Link' }).click();
      await expect(dialog.getByText('That password is not correct.')).toBeVisible();
      await page.screenshot({ path: `/tmp/shots-owner33/dialog-${width}.png` });
      await dialog.getByLabel(/^Current password/).fill(demoPassword);
      await dialog.getByRole('button', { name: 'Send Link' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(toast(page, portalSuccess.emailChangeRequested(newEmail).title)).toBeVisible();

      // Until the link is opened the account keeps its address, and says what it waits for.
      const pending = card.getByTestId('pending-email');
      await expect(pending).toContainText(`Waiting for you to confirm ${newEmail}: we sent a link.`);
      await expect(card.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue(email);
      await noHorizontalScroll(page, width);
      await pending.screenshot({ path: `/tmp/shots-owner33/pending-${width}.png` });

      // The link from the new address's e-mail, opened in the same browser (signed in).
      await page.goto(await linkFromMail(newEmail, 'confirmEmail', before));
      const linkCard = page.getByTestId('email-link-card');
      await expect(linkCard.getByRole('heading', { name: 'Confirm your new email address' })).toBeVisible();
      await expect(page).not.toHaveURL(/confirmEmail/);
      await noHorizontalScroll(page, width);
      await page.screenshot({ path: `/tmp/shots-owner33/confirm-${width}.png`, fullPage: true });
      await linkCard.getByRole('button', { name: 'Confirm Email Address' }).click();
      await expect(linkCard.getByRole('heading', { name: 'Email Address Changed' })).toBeVisible();
      await expect(linkCard).toContainText(portalSuccess.emailChangeConfirmed(newEmail).description);
      await expect(page.getByText(newEmail, { exact: true })).toBeVisible();
      await page.screenshot({ path: `/tmp/shots-owner33/confirmed-${width}.png`, fullPage: true });

      // The old address's undo link, opened elsewhere without a session.
      const undoLink = await linkFromMail(email, 'undoEmail', before);
      const other = await browser.newContext({ viewport: { width, height: 900 } });
      try {
        const owner = await other.newPage();
        await owner.goto(undoLink);
        const undoCard = owner.getByTestId('email-link-card');
        await undoCard.getByRole('button', { name: 'Undo the Change' }).click();
        await expect(undoCard.getByRole('heading', { name: 'Email Change Undone' })).toBeVisible();
        await expect(owner).not.toHaveURL(/undoEmail/);
        await noHorizontalScroll(owner, width);
        expect((await axeOf(owner).include('[data-testid="email-link-card"]').analyze()).violations).toEqual([]);
        await owner.screenshot({ path: `/tmp/shots-owner33/undone-${width}.png`, fullPage: true });
        // The same link again is refused.
        await owner.goto(undoLink);
        await owner.getByTestId('email-link-card').getByRole('button', { name: 'Undo the Change' }).click();
        await expect(owner.getByRole('heading', { name: portalMessages.invalidEmailChangeLink.title })).toBeVisible();
      } finally {
        await other.close();
      }

      // Every session ended: the first browser is signed out at its next call, and the old address signs in again.
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Investor Portal' })).toBeVisible();
      await signIn(page, email);
      await expect(page.getByText(email, { exact: true })).toBeVisible();
    });
  });
}

test('with the keyboard only: the password prompt, Escape, cancelling a change, and the link\'s card', async ({ page }) => {
  test.slow();
  const email = await newInvestor('keyboard');
  const newEmail = `kb.${email}`;
  await signIn(page, email);
  await expect(page.getByRole('button', { name: 'Manage Profile' })).toBeVisible();
  await page.getByRole('button', { name: 'Manage Profile' }).focus();
  await page.keyboard.press('Enter');
  const card = page.locator('#manage-profile');
  const emailField = card.getByRole('textbox', { name: 'Email', exact: true });
  await emailField.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(newEmail);
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Change your email address' });
  const password = dialog.getByLabel(/^Current password/);
  await expect(password).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  const submit = card.getByRole('button', { name: 'Update Profile' });
  await expect(submit).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(password).toBeFocused();
  await page.keyboard.type(demoPassword);
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(submit).toBeFocused();
  const pending = card.getByTestId('pending-email');
  await expect(pending).toContainText(newEmail);

  // The change's Cancel comes just before Update Profile.
  await page.keyboard.press('Shift+Tab');
  const cancel = pending.getByRole('button', { name: 'Cancel Change' });
  await expect(cancel).toBeFocused();
  await page.screenshot({ path: '/tmp/shots-owner33/keyboard-cancel-focus.png' });
  await page.keyboard.press('Enter');
  await expect(toast(page, portalSuccess.emailChangeCancelled.title)).toBeVisible();
  await expect(pending).toHaveCount(0);
  await expect(submit).toBeFocused();
  await expect(emailField).toHaveValue(email);

  // Asked again, then confirmed from the link's card: its button has the focus, then its outcome.
  const before = deliveredMailFiles();
  await emailField.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(newEmail);
  await page.keyboard.press('Enter');
  await expect(password).toBeFocused();
  await page.keyboard.type(demoPassword);
  await page.keyboard.press('Enter');
  await expect(pending).toContainText(newEmail);
  await page.goto(await linkFromMail(newEmail, 'confirmEmail', before));
  const linkCard = page.getByTestId('email-link-card');
  await expect(linkCard.getByRole('button', { name: 'Confirm Email Address' })).toBeFocused();
  await page.keyboard.press('Enter');
  const outcome = linkCard.getByRole('heading', { name: 'Email Address Changed' });
  await expect(outcome).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(linkCard.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(linkCard).toHaveCount(0);
  await expect(page.locator('#main-content')).toBeFocused();
  await expect(page.getByText(newEmail, { exact: true })).toBeVisible();
});
