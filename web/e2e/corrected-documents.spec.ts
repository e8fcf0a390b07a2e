import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { personalDocumentAnswer } from '@everest/core/contract';
import { formatDate } from '@everest/core/domain';
import { adminToken, createUserByApi, openAdminTab, pdfFile, toast, unique } from './support/admin';
import { deliveredMails } from './support/mail';
import { signIn } from './support/portal';

// Corrected documents (issue 21) against the real server. Each test uses an investor of its own
// and personal documents only: a property document would change what other specs count.
// Two sessions (the administrator's panel and the investor's portal) each: longer than one.
test.describe.configure({ timeout: 90_000 });

async function investorWithK1(request: APIRequestContext, title: string) {
  const token = await adminToken(request);
  const investor = `${unique('corrected.')}@example.com`;
  const { password } = await createUserByApi(request, { email: investor, name: 'Cora Rected' }, token);
  const first = pdfFile('k1-first.pdf');
  const uploaded = await request.post('/api/admin/upload-user-document', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { userEmail: investor, documentCategory: 'tax', title, emailNotification: 'false', document: first },
  });
  expect(uploaded.ok(), await uploaded.text()).toBe(true);
  return { token, investor, password, first, documentId: personalDocumentAnswer.parse(await uploaded.json()).document.id };
}

async function investorPage(browser: Browser, investor: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, investor, password);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  await page.getByRole('tab', { name: /Personal Documents/ }).click();
  return page;
}

async function findPersonalDocument(page: Page, title: string) {
  await openAdminTab(page, 'User Documents');
  await page.getByRole('searchbox', { name: 'Search user documents' }).fill(title);
  const row = page.getByRole('table', { name: 'User Documents' }).getByRole('row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  return row;
}

test('a corrected document shows its badge to the investor', async ({ page, browser, request }) => {
  const title = unique('K-1 2025 ');
  const { investor, password } = await investorWithK1(request, title);

  // The investor has opened the first file: no 'New', no 'Corrected'.
  const portal = await investorPage(browser, investor, password);
  const item = portal.getByRole('listitem').filter({ hasText: title });
  await expect(item.getByTestId('new-badge')).toHaveText('New');
  const read = portal.waitForResponse((response) => response.url().includes('/api/investor/download/') && response.status() === 200);
  await item.getByRole('button', { name: new RegExp(title) }).first().click();
  await read;
  await portal.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(item.getByTestId('new-badge')).toHaveCount(0);
  await expect(item.getByTestId('corrected-badge')).toHaveCount(0);

  // The administrator publishes the corrected file with a note and the e-mail.
  const row = await findPersonalDocument(page, title);
  await row.getByRole('button', { name: `Correct ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: `Correct ${title}` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Corrected file').setInputFiles(pdfFile('k1-corrected.pdf'));
  await dialog.getByRole('textbox', { name: /What was corrected/ }).fill('Box 19 distributions were restated');
  await expect(dialog.getByRole('checkbox', { name: /email notification/ })).toBeChecked();
  await dialog.getByRole('button', { name: 'Publish Correction' }).click();
  await expect(toast(page, 'Correction Published')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText(`Corrected ${formatDate(new Date())} version 2`);

  // The investor's portal, loaded again, shows the new file as corrected today, and 'New' again.
  await portal.reload();
  await portal.getByRole('tab', { name: /Personal Documents/ }).click();
  await expect(item.getByTestId('corrected-badge')).toHaveText(`Corrected ${formatDate(new Date())}`);
  await expect(item.getByTestId('new-badge')).toHaveText('New');
  await expect(item).toContainText('k1-corrected.pdf');

  // The e-mail says it is a correction, and why.
  await expect.poll(() => deliveredMails(investor).filter((text) => text.includes(title)).length, { timeout: 20_000 }).toBe(1);
  const [mail] = deliveredMails(investor).filter((text) => text.includes(title));
  expect(mail).toContain('Subject: A corrected document is available in your investor portal');
  expect(mail).toContain('Corrected: Box 19 distributions were restated');
});

test("the administrator sees a document's versions and downloads each; the keyboard closes the history", async ({ page, request }) => {
  const title = unique('Capital Statement ');
  const { token, documentId, first } = await investorWithK1(request, title);
  const second = pdfFile('statement-corrected.pdf');
  const corrected = await request.post(`/api/admin/replace-user-document/${documentId}`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { note: 'Ending balance fixed', document: second },
  });
  expect(corrected.ok(), await corrected.text()).toBe(true);

  const row = await findPersonalDocument(page, title);
  const versionsButton = row.getByRole('button', { name: `Versions of ${title}` });
  await versionsButton.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Versions of ${title}` });
  await expect(dialog).toBeVisible();
  const versions = dialog.getByRole('listitem');
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toContainText('Version 2');
  await expect(versions.nth(0)).toContainText('Current');
  await expect(versions.nth(0)).toContainText('Why: Ending balance fixed');
  await expect(versions.nth(0)).toContainText('statement-corrected.pdf');
  await expect(versions.nth(1)).toContainText('Version 1');
  await expect(versions.nth(1)).toContainText('k1-first.pdf');

  // Each version's own file, from the address its Download button opens (a document link of
  // that version, never the session token). The window is recorded rather than opened, as the
  // portal's download test does.
  await page.evaluate(() => {
    const opened: string[] = [];
    Object.assign(window, { openedUrls: opened });
    window.open = (url?: string | URL) => {
      opened.push(String(url));
      return null;
    };
  });
  const opened = () => page.evaluate(() => (window as unknown as { openedUrls: string[] }).openedUrls.filter((url) => url !== ''));
  for (const [index, file] of [[0, second], [1, first]] as const) {
    await dialog.getByRole('button', { name: `Download version ${2 - index} of ${title}` }).click();
    await expect.poll(async () => (await opened()).length).toBe(index + 1);
    const url = (await opened())[index] ?? '';
    expect(url).toContain('/api/investor/download-version/');
    expect(url).not.toContain(token);
    const response = await page.request.get(url);
    expect(response.status()).toBe(200);
    expect(Buffer.from(await response.body()).equals(file.buffer)).toBe(true);
  }

  // Escape closes it and the focus goes back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(versionsButton).toBeFocused();
});
