import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminToken, createUserByApi, openAdminTab, pdfFile, toast, unique } from './support/admin';
import { deliveredMails, queuedMailSubjects } from './support/mail';
import { signIn } from './support/portal';

// Read receipts (issue 21) against the real server: an administrator sees that an investor has
// not opened a new K-1, reminds them, the investor receives the e-mail, opens the document from
// the portal (its 'New' badge goes), and the administrator's view shows it opened. The investor
// is one of this test's own: a K-1 added to a demo investor would change what other specs count.

async function investorPage(browser: Browser, investor: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, investor, password);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  return page;
}

test('an administrator reminds an investor of an unopened K-1; the investor opens it and the view says so', async ({ page, browser, request }) => {
  // Two people's sessions in turn: about 30 s at a load average of 20 on the shared machine.
  test.setTimeout(90_000);
  // Setup through the API: an investor of this test's own with a new K-1, no notification.
  const title = unique('K-1 2025 ');
  const token = await adminToken(request);
  const investor = `${unique('receipts.')}@example.com`;
  const { password } = await createUserByApi(request, { email: investor, name: 'Reese Reader' }, token);
  const file = pdfFile('k1.pdf');
  const uploaded = await request.post('/api/admin/upload-user-document', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      userEmail: investor,
      documentCategory: 'tax',
      title,
      emailNotification: 'false',
      document: file,
    },
  });
  expect(uploaded.ok(), await uploaded.text()).toBe(true);

  await openAdminTab(page, 'Read Receipts');
  await page.getByRole('searchbox', { name: 'Search documents' }).fill(title);
  const row = page.getByRole('table', { name: 'Documents' }).getByRole('row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('0 of 1');
  await row.getByRole('button', { name: `Details of ${title}` }).click();
  await expect(page.getByRole('heading', { name: `Read receipts: ${title}` })).toBeFocused();

  const investorRow = page.getByRole('table', { name: 'Investors' }).getByRole('row').filter({ hasText: investor });
  await expect(investorRow).toContainText('Not opened');
  await expect(page.getByTestId('last-reminder')).toHaveText('No reminder sent yet');
  // Issue 32 case 7: the reminder first says how many people it will e-mail; Cancel (or
  // Escape) sends nothing and gives the focus back to the button.
  const remind = page.getByRole('button', { name: 'Remind those who have not opened it' });
  await remind.click();
  const confirm = page.getByRole('alertdialog', { name: 'This will e-mail 1 person' });
  await expect(confirm).toContainText('1 document in all');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(remind).toBeFocused();
  await expect(page.getByTestId('last-reminder')).toHaveText('No reminder sent yet');
  expect(await queuedMailSubjects(investor)).toEqual([]);
  await remind.click();
  await confirm.getByRole('button', { name: 'Send Reminders' }).click();
  await expect(toast(page, 'Reminder Sent')).toContainText('Reminded 1 investor of 1 unopened document.');
  await expect(page.getByTestId('last-reminder')).toContainText('Last reminder sent');
  await expect(investorRow.getByRole('cell').nth(2)).not.toHaveText('—');

  // The outbox worker delivers it (an .eml file without SMTP_URL), listing the K-1.
  await expect.poll(() => deliveredMails(investor).filter((text) => text.includes(title)).length, { timeout: 20_000 }).toBe(1);
  const [mail] = deliveredMails(investor).filter((text) => text.includes(title));
  expect(mail).toContain('Subject: Documents are waiting for you in your investor portal');

  // Pressed again at once: nobody is reminded twice within 7 days.
  await page.getByRole('button', { name: 'Remind those who have not opened it' }).click();
  await expect(toast(page, 'Nobody Reminded')).toBeVisible();

  // investor2 sees the K-1 as new, opens it, and the badge goes, also after a reload.
  const portal = await investorPage(browser, investor, password);
  await portal.getByRole('tab', { name: /Personal Documents/ }).click();
  const item = portal.getByRole('listitem').filter({ hasText: title });
  await expect(item.getByTestId('new-badge')).toHaveText('New');
  // The read is recorded when the preview frame's request for the file is answered.
  const read = portal.waitForResponse((response) => response.url().includes('/api/investor/download/') && response.status() === 200);
  await item.getByRole('button', { name: new RegExp(title) }).first().click();
  const preview = portal.getByRole('dialog');
  await expect(preview).toBeVisible();
  await read;
  await preview.getByRole('button', { name: 'Close' }).click();
  await expect(preview).toBeHidden();
  // Cleared in the browser at once: the list is not fetched again (never stale).
  await expect(item.getByRole('button', { name: new RegExp(title) }).first()).toBeVisible();
  await expect(item.getByTestId('new-badge')).toHaveCount(0);

  // The server recorded the read: the administrator's view, opened again, shows it.
  await page.getByRole('button', { name: 'Back to all documents' }).click();
  await expect(row).toContainText('1 of 1');
  await row.getByRole('button', { name: `Details of ${title}` }).click();
  await expect(investorRow).toContainText('First');
  await expect(investorRow).not.toContainText('Not opened');

  await portal.reload();
  await portal.getByRole('tab', { name: /Personal Documents/ }).click();
  // After a reload, the server's list says the same.
  await expect(item.getByRole('button', { name: new RegExp(title) }).first()).toBeVisible();
  await expect(item.getByTestId('new-badge')).toHaveCount(0);
  await portal.context().close();
});

// Issue 35: searching the read receipts for an investor's name found nothing ('carter'), while
// User Documents found them; the two searches now share one rule (names, entities, e-mails).
test("the read-receipt search finds an investor's personal documents by name and by entity", async ({ page, request }) => {
  const token = await adminToken(request);
  const lastName = unique('Carterson');
  const entity = unique('Carter Family Trust ');
  const investor = `${unique('receipts.name.')}@example.com`;
  await createUserByApi(request, { email: investor, name: `Reese ${lastName}`, entity }, token);
  const title = unique('K-1 2025 ');
  const uploaded = await request.post('/api/admin/upload-user-document', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { userEmail: investor, documentCategory: 'tax', title, emailNotification: 'false', document: pdfFile('k1.pdf') },
  });
  expect(uploaded.ok(), await uploaded.text()).toBe(true);

  await openAdminTab(page, 'Read Receipts');
  const search = page.getByRole('searchbox', { name: 'Search documents' });
  const rows = page.getByRole('table', { name: 'Documents' }).getByRole('row').filter({ hasText: title });
  for (const text of [lastName.toLowerCase(), `reese ${lastName}`, entity.toUpperCase()]) {
    // A search that finds nothing between them, so that a row still shown from the last search never passes.
    const none = unique('no such investor ');
    await search.fill(none);
    await expect(page.getByText(`No document matches "${none}".`)).toBeVisible();
    await search.fill(text);
    await expect(rows, text).toHaveCount(1);
  }
});
