import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { loginAnswer } from '@everest/core/contract';
import { portalSuccess } from '@everest/core/domain';
import { adminToken, createUserByApi, openAdminTab, pdfFile, toast, unique } from './support/admin';
import { deliveredMailFiles, passwordLinkFromMail } from './support/mail';
import { signIn } from './support/portal';

// Shared access (issue 36) against the real server: an investor shares their tax documents only
// with a new e-mail address; that person chooses a password from the e-mail, sees exactly the
// investor's tax documents under the investor's name, and opens one; the administrator's read
// receipts say it was opened on the investor's behalf by them; the investor revokes, and the
// delegate's next request gets nothing. Each run uses an investor and a delegate of its own.

/**
 * Presses Tab until `target` (or something inside it) has the focus, the keyboard's way there;
 * Shift+Tab when it is behind the focus (the page's end does not wrap round to its start).
 */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  const focused = () => target.evaluate((element) => element === document.activeElement || element.contains(document.activeElement));
  const backward = await target.evaluate((element) => {
    const active = document.activeElement;
    return !!active && active !== document.body && !!(element.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  for (let i = 0; i < max; i += 1) {
    if (await focused()) return;
    await page.keyboard.press(backward ? 'Shift+Tab' : 'Tab');
  }
  if (await focused()) return;
  throw new Error(`Tab did not reach ${target.toString()}`);
}

/** Clicks, or with the keyboard only, tabs to the control and presses Enter. */
async function press(page: Page, target: Locator, keyboard: boolean): Promise<void> {
  if (!keyboard) return target.click();
  await tabTo(page, target);
  await page.keyboard.press('Enter');
}

/** Fills a field, or with the keyboard only, tabs to it and types. */
async function type(page: Page, field: Locator, text: string, keyboard: boolean): Promise<void> {
  if (!keyboard) return field.fill(text);
  await tabTo(page, field);
  await page.keyboard.type(text);
}

async function newPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  return context.newPage();
}

/**
 * Each person has a window of their own; only the one in front has the focus, which the focus
 * checks need (a background window's focused element is 'inactive').
 */
async function inFront(page: Page): Promise<Page> {
  await page.bringToFront();
  return page;
}

/** An investor of this run's own with a tax document and a legal one, neither shared yet. */
async function investorWithDocuments(request: APIRequestContext) {
  const token = await adminToken(request);
  const email = `${unique('sharer.')}@example.com`;
  const { user, password } = await createUserByApi(request, { email, name: 'Olivia Brennan', entity: 'Brennan Family Trust' }, token);
  const taxTitle = unique('K-1 2025 ');
  const legalTitle = unique('Subscription agreement ');
  for (const { title, documentCategory } of [
    { title: taxTitle, documentCategory: 'tax' },
    { title: legalTitle, documentCategory: 'legal' },
  ]) {
    const uploaded = await request.post('/api/admin/upload-user-document', {
      headers: { Authorization: `Bearer ${token}` },
      multipart: { userEmail: email, documentCategory, title, emailNotification: 'false', document: pdfFile('document.pdf') },
    });
    expect(uploaded.ok(), await uploaded.text()).toBe(true);
  }
  return { user, email, password, taxTitle, legalTitle };
}

async function shareTaxDocuments(page: Page, delegate: string, password: string, keyboard: boolean): Promise<void> {
  await press(page, page.getByRole('button', { name: 'Manage Profile' }), keyboard);
  const section = page.getByRole('region', { name: 'Shared access' });
  await expect(section.getByText('You share your documents with nobody.')).toBeVisible();
  const open = section.getByRole('button', { name: 'Share access' });

  // Escape closes the dialog and gives the focus back to the button that opened it.
  await press(page, open, keyboard);
  const dialog = page.getByRole('dialog', { name: 'Share access' });
  await expect(dialog.getByRole('textbox', { name: 'Their email address' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  await press(page, open, keyboard);
  await type(page, dialog.getByRole('textbox', { name: 'Their email address' }), delegate, keyboard);
  // Tax documents only, no property documents: the dialog's defaults, checked rather than trusted.
  const personal = dialog.getByRole('radiogroup', { name: 'Personal documents' });
  await expect(personal.getByRole('radio', { name: 'Only these categories' })).toBeChecked();
  const categories = dialog.getByRole('group', { name: 'Categories to share' });
  await expect(categories.getByRole('checkbox', { name: 'Tax documents' })).toBeChecked();
  for (const other of ['Personal documents', 'Legal documents', 'Financial documents', 'Other personal documents']) {
    await expect(categories.getByRole('checkbox', { name: other, exact: true })).not.toBeChecked();
  }
  await expect(dialog.getByRole('radiogroup', { name: 'Property documents' }).getByRole('radio', { name: 'None' })).toBeChecked();
  await press(page, dialog.getByRole('button', { name: 'Continue' }), keyboard);

  const proof = page.getByRole('dialog', { name: 'Confirm the share' });
  await expect(proof).toContainText(`${delegate} will see: Tax documents. No end date.`);
  const passwordField = proof.getByLabel('Current password');
  await expect(passwordField).toBeFocused();
  await page.keyboard.type(password);
  await press(page, proof.getByRole('button', { name: 'Share', exact: true }), keyboard);
  await expect(toast(page, 'Access Shared')).toBeVisible();
  await expect(proof).toBeHidden();
  await expect(open).toBeFocused();

  const row = section.getByTestId('outgoing-share');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(delegate);
  await expect(row).toContainText('Invited');
  await expect(row).toContainText('Tax documents');
  await expect(row).toContainText('No end date');
}

/** The delegate chooses a password from the share's e-mail and signs in; answers the password. */
async function delegateWelcome(page: Page, delegate: string, before: string[], keyboard: boolean): Promise<string> {
  const link = await passwordLinkFromMail(delegate, before);
  await page.goto(link);
  const panel = page.getByRole('region', { name: 'Password reset' });
  const newPassword = `Dg-${Math.random().toString(36).slice(2, 8)}A1!`;
  // The token leaves the address first (use-reset-token): only then does the form stay put.
  await expect(page).not.toHaveURL(/resetToken/);
  await type(page, panel.getByRole('textbox', { name: 'New password', exact: true }), newPassword, keyboard);
  await type(page, panel.getByRole('textbox', { name: 'Confirm new password' }), newPassword, keyboard);
  await press(page, panel.getByRole('button', { name: 'Update Password' }), keyboard);
  await expect(toast(page, portalSuccess.passwordReset.title)).toBeVisible();
  await type(page, page.getByRole('textbox', { name: 'Email', exact: true }), delegate, keyboard);
  await type(page, page.getByRole('textbox', { name: 'Password', exact: true }), newPassword, keyboard);
  await page.keyboard.press('Enter');
  return newPassword;
}

async function delegateToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await request.post('/api/investor/login', { data: { email, password } });
  expect(response.ok(), await response.text()).toBe(true);
  return loginAnswer.parse(await response.json()).token;
}

const sizes = [
  { name: '1280 px', viewport: { width: 1280, height: 900 }, keyboard: false },
  { name: '375 px', viewport: { width: 375, height: 812 }, keyboard: false },
  { name: 'the keyboard only', viewport: { width: 1280, height: 900 }, keyboard: true },
];

for (const { name, viewport, keyboard } of sizes) {
  test(`an investor shares tax documents only; the delegate reads them under the investor's name until revoked (${name})`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const investor = await investorWithDocuments(request);
    const delegate = `${unique('delegate.')}@example.com`;

    const owner = await newPage(browser, viewport);
    await signIn(owner, investor.email, investor.password);
    await expect(owner.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
    const before = deliveredMailFiles();
    await shareTaxDocuments(owner, delegate, investor.password, keyboard);

    // The delegate: a password from the e-mail, then the investor's tax documents under their name.
    const reader = await newPage(browser, viewport);
    const password = await delegateWelcome(await inFront(reader), delegate, before, keyboard);
    const documents = reader.getByRole('heading', { name: "Olivia Brennan's documents, shared with you" });
    await expect(documents).toBeVisible();
    const switcher = reader.getByRole('navigation', { name: 'Whose documents' });
    await expect(switcher.getByRole('link')).toHaveText(['Olivia Brennan, Brennan Family Trust']);
    await expect(switcher.getByRole('link', { name: 'Olivia Brennan, Brennan Family Trust' })).toHaveAttribute('aria-current', 'page');
    await expect(reader.getByTestId('share-scope')).toHaveText('Shared with you: Tax documents. No end date. View and download only.');
    await expect(reader.getByRole('tab', { name: 'Personal Documents (1)' })).toHaveAttribute('aria-selected', 'true');
    await expect(reader.getByRole('tab', { name: 'Property Documents (0)' })).toBeVisible();
    const item = reader.getByRole('listitem').filter({ hasText: investor.taxTitle });
    await expect(item).toHaveCount(1);
    await expect(reader.getByText(investor.legalTitle)).toHaveCount(0);

    // Opened: the read is recorded when the request for the file is answered, through the share.
    const throughShare = (url: string) => url.includes('/api/investor/download/') && url.includes(`onBehalfOf=${investor.user.id}`);
    if (keyboard) {
      // Download by keyboard (a new window). The preview is not used here: once Chromium's PDF
      // viewer in its frame has the focus, Escape no longer reaches the dialog (see
      // document-preview-dialog.tsx); portal-documents.spec.ts checks the preview by keyboard.
      const read = reader.context().waitForEvent('response', (response) => throughShare(response.url()));
      const download = item.getByRole('button', { name: `Download ${investor.taxTitle}` });
      await press(reader, download, keyboard);
      expect((await read).status()).toBe(200);
      await expect(download).toBeFocused();
    } else {
      const read = reader.waitForResponse((response) => throughShare(response.url()));
      const openButton = item.getByRole('button', { name: new RegExp(investor.taxTitle) }).first();
      await openButton.click();
      const preview = reader.getByRole('dialog', { name: investor.taxTitle });
      await expect(preview).toBeVisible();
      expect((await read).status()).toBe(200);
      await preview.getByRole('button', { name: 'Close' }).click();
      await expect(preview).toBeHidden();
    }

    // A delegate never shares further: their Manage Profile has no Shared access.
    await press(reader, reader.getByRole('button', { name: 'Manage Profile' }), keyboard);
    await expect(reader.getByRole('heading', { name: 'Manage Profile' })).toBeVisible();
    await expect(reader.getByRole('heading', { name: 'Signed-in devices' })).toBeVisible();
    await expect(reader.getByRole('heading', { name: 'Shared access' })).toHaveCount(0);

    // The administrator's read receipts: the investor's K-1 opened, on their behalf by the delegate.
    const admin = await inFront(await newPage(browser, viewport));
    await openAdminTab(admin, 'Read Receipts');
    await admin.getByRole('searchbox', { name: 'Search documents' }).fill(investor.taxTitle);
    const receiptRow = admin.getByRole('table', { name: 'Documents' }).getByRole('row').filter({ hasText: investor.taxTitle });
    await expect(receiptRow).toContainText('1 of 1');
    await receiptRow.getByRole('button', { name: `Details of ${investor.taxTitle}` }).click();
    const investorRow = admin.getByRole('table', { name: 'Investors' }).getByRole('row').filter({ hasText: investor.email });
    await expect(investorRow.getByTestId('opened-by')).toHaveText(`On their behalf by ${delegate}`);
    await admin.context().close();

    // The investor opens Manage Profile again: the share is active now. They revoke it (asked
    // first; Escape keeps it and gives the focus back).
    await inFront(owner);
    const profile = owner.getByRole('button', { name: 'Manage Profile' });
    await press(owner, profile, keyboard);
    await expect(owner.getByRole('heading', { name: 'Shared access' })).toHaveCount(0);
    await press(owner, profile, keyboard);
    const section = owner.getByRole('region', { name: 'Shared access' });
    await expect(section.getByTestId('outgoing-share')).toContainText('Active');
    const revoke = section.getByRole('button', { name: `Revoke access of ${delegate}` });
    await press(owner, revoke, keyboard);
    const confirm = owner.getByRole('alertdialog', { name: `Revoke access of ${delegate}?` });
    await expect(confirm).toBeVisible();
    await owner.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(revoke).toBeFocused();
    await press(owner, revoke, keyboard);
    await press(owner, confirm.getByRole('button', { name: 'Revoke access' }), keyboard);
    await expect(confirm).toBeHidden();
    await expect(section.getByTestId('outgoing-share')).toHaveCount(0);
    await expect(section.getByRole('heading', { name: 'Shared access' })).toBeFocused();
    await owner.context().close();

    // The delegate's next request gets nothing: the list through the share answers 404...
    const token = await delegateToken(request, delegate, password);
    const list = await request.get(`/api/investor/documents?onBehalfOf=${investor.user.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(list.status()).toBe(404);
    // ...and the portal, asked again, says nothing is shared with them now.
    await (await inFront(reader)).reload();
    await expect(reader.getByText('Nothing is shared with you now.')).toBeVisible();
    await expect(reader.getByText(investor.taxTitle)).toHaveCount(0);
    await reader.context().close();
  });
}
