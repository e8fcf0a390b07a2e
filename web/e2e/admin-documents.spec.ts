import { expect, test, type Browser, type Page } from '@playwright/test';
import { portalMessages } from '@everest/core/domain';
import { adminToken, createUserByApi, investorPropertyNames, openAdminTab, pdfFile, pickByEmail, toast, unique } from './support/admin';
import { queuedMailSubjects, waitForMails } from './support/mail';
import { signIn } from './support/portal';
import { createProperty } from './support/publishing';
import { axeOf } from './support/axe';

// The Documents and User Documents tabs against the real server: what an administrator
// publishes is what the investor with access sees in 'Your Documents'.

const documentsTable = (page: Page) => page.getByRole('table', { name: 'Documents' });

/** Signs the investor in, in a browser context of their own, at 'Your Documents'. */
async function investorPage(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  return page;
}

test('an administrator publishes, edits and deletes a property document; the investor with access sees it', async ({
  page,
  browser,
  request,
}) => {
  const [property] = await investorPropertyNames(request);
  if (!property) throw new Error('The fixtures have no investor-relations property.');
  const email = `${unique('docs-investor-')}@example.com`;
  const { password } = await createUserByApi(request, { email, properties: [property] });
  const title = unique('Quarterly Report ');

  await openAdminTab(page, 'Documents');
  const form = page.getByRole('form', { name: 'Upload Document' });
  // Nothing chosen: the title is asked for first, and takes the focus.
  await form.getByRole('button', { name: 'Upload Document' }).click();
  await expect(form.getByRole('textbox', { name: 'Title' })).toBeFocused();

  await form.getByRole('textbox', { name: 'Title' }).fill(title);
  await form.getByRole('combobox', { name: 'Property' }).selectOption(property);
  await expect(form.getByRole('combobox', { name: 'Quarter' })).toHaveValue('Q1');
  await form.getByRole('combobox', { name: 'Quarter' }).selectOption('Q2');
  // A file of another type is refused when chosen, before anything is sent.
  const picker = form.getByLabel('File');
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a report') });
  await expect(toast(page, portalMessages.invalidFileType)).toBeVisible();
  await picker.setInputFiles(pdfFile('report.pdf'));
  await form.getByRole('button', { name: 'Upload Document' }).click();
  await expect(toast(page, 'Document Uploaded')).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Title' })).toHaveValue('');

  // The list is searched in the browser; the search is in the address.
  await page.getByRole('searchbox', { name: 'Search documents' }).fill(title);
  await expect(page).toHaveURL(/documentSearch=/);
  const row = documentsTable(page).getByRole('row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(property);
  await expect(row).toContainText('Q2');

  // The investor with access sees it under its property.
  const investor = await investorPage(browser, email, password);
  await expect(investor.getByText(title, { exact: true })).toBeVisible();

  // Inline edit of the title; Escape would close it, Save keeps it.
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const editor = page.getByRole('form', { name: `Edit ${title}` });
  await expect(editor.getByRole('textbox', { name: 'Title' })).toBeFocused();
  const renamed = `${title} (revised)`;
  await editor.getByRole('textbox', { name: 'Title' }).fill(renamed);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Document Updated')).toBeVisible();
  const renamedRow = documentsTable(page).getByRole('row').filter({ hasText: renamed });
  await expect(renamedRow).toHaveCount(1);
  await expect(renamedRow.getByRole('button', { name: `Edit ${renamed}` })).toBeFocused();
  await investor.reload();
  await expect(investor.getByText(renamed, { exact: true })).toBeVisible();

  // Delete through the confirmation dialog.
  await renamedRow.getByRole('button', { name: `Delete ${renamed}` }).click();
  const dialog = page.getByRole('alertdialog', { name: `Delete ${renamed}?` });
  await dialog.getByRole('button', { name: 'Delete Document' }).click();
  await expect(toast(page, 'Document Deleted')).toBeVisible();
  await expect(documentsTable(page).getByRole('row').filter({ hasText: renamed })).toHaveCount(0);
  await investor.reload();
  await expect(investor.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  await expect(investor.getByText(renamed, { exact: true })).toHaveCount(0);
  await investor.context().close();
});

test("an administrator publishes a quarter's report for a property with notification on; the investor with access sees it and gets exactly one e-mail listing it, the investor without access nothing", async ({
  page,
  browser,
  request,
}) => {
  // A property of this test's own: every investor with access to a property is told of its
  // documents, so a shared one would hear of the uploads of tests running beside this one.
  const property = unique('Notify Court ');
  const token = await adminToken(request);
  // Active, with investor relations: a property whose documents its investors can read (issue 32).
  await createProperty(request, token, property);
  const withAccess = `${unique('notify-in-')}@example.com`;
  const withoutAccess = `${unique('notify-out-')}@example.com`;
  const insider = await createUserByApi(request, { email: withAccess, properties: [property] }, token);
  const outsider = await createUserByApi(request, { email: withoutAccess }, token);
  const title = unique('Q1 Investor Report ');

  await openAdminTab(page, 'Documents');
  const form = page.getByRole('form', { name: 'Upload Document' });
  await form.getByRole('textbox', { name: 'Title' }).fill(title);
  await form.getByRole('combobox', { name: 'Property' }).selectOption(property);
  await form.getByLabel('File').setInputFiles(pdfFile('q1-report.pdf'));
  await form.getByRole('checkbox', { name: /Send an email notification/ }).check();
  await form.getByRole('button', { name: 'Upload Document' }).click();
  // Issue 32 case 7: how many people it e-mails is said, and confirmed, first.
  await page.getByRole('alertdialog', { name: 'This will e-mail 1 person' }).getByRole('button', { name: 'Upload and Send E-mails' }).click();
  await expect(toast(page, 'Document Uploaded')).toBeVisible();

  // The e-mails are queued in the upload's transaction: once it has answered, these are final.
  expect(await queuedMailSubjects(withAccess)).toEqual(['A new document is available in your investor portal']);
  expect(await queuedMailSubjects(withoutAccess)).toEqual([]);
  const [mail] = await waitForMails(withAccess, 1);
  expect(mail).toContain(title);
  expect(mail).toContain(property);

  const investor = await investorPage(browser, withAccess, insider.password);
  await expect(investor.getByText(title, { exact: true })).toBeVisible();
  await investor.context().close();
  const stranger = await investorPage(browser, withoutAccess, outsider.password);
  // Loaded (the tab counts them) before looking for what must not be there.
  await expect(stranger.getByRole('tab', { name: /Property Documents \(\d+\)/ })).toBeVisible();
  await expect(stranger.getByText(title, { exact: true })).toHaveCount(0);
  await expect(stranger.getByText(property)).toHaveCount(0);
  await stranger.context().close();
});

test('the Documents tab passes axe', async ({ page }) => {
  await openAdminTab(page, 'Documents');
  await expect(documentsTable(page).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByText('Loading documents...')).toHaveCount(0);
  const results = await axeOf(page).include('[role="tabpanel"]').analyze();
  expect(results.violations).toEqual([]);
});

const personalDocumentsTable = (page: Page) => page.getByRole('table', { name: 'User Documents' });

test('an administrator publishes a personal document for an investor, edits it in the modal and deletes it', async ({
  page,
  browser,
  request,
}) => {
  const email = `${unique('personal-investor-')}@example.com`;
  const { password } = await createUserByApi(request, { email, name: 'Pat Personal' });
  const title = unique('Operating Agreement ');
  const file = pdfFile('agreement.pdf');

  await openAdminTab(page, 'User Documents');
  const form = page.getByRole('form', { name: 'Upload User Document' });
  // Nothing chosen: the user is asked for first, and takes the focus.
  await form.getByRole('button', { name: 'Upload User Document' }).click();
  await expect(form.getByRole('combobox', { name: 'User' })).toBeFocused();

  const publish = async () => {
    await pickByEmail(page, form.getByRole('combobox', { name: 'User' }), email);
    await form.getByRole('combobox', { name: 'Document Category' }).selectOption('personal');
    await form.getByRole('textbox', { name: 'Document Title' }).fill(title);
    await form.getByLabel('File').setInputFiles(file);
    await form.getByRole('button', { name: 'Upload User Document' }).click();
  };
  await publish();
  await expect(toast(page, 'Document Published')).toBeVisible();
  await expect(form.getByRole('status')).toContainText(`"${title}" is now in ${email}'s Personal Documents.`);

  // The same file again for the same investor publishes nothing, and the form says so.
  await publish();
  await expect(form.getByRole('status')).toContainText('Nothing new was published');

  // The list: searched on the server, the search in the address.
  await page.getByRole('searchbox', { name: 'Search user documents' }).fill(title);
  await expect(page).toHaveURL(/userDocumentSearch=/);
  const row = personalDocumentsTable(page).getByRole('row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Personal Documents');
  await expect(row.getByRole('button', { name: `Download ${title}` })).toBeEnabled();

  // The investor sees it under Personal Documents.
  const investor = await investorPage(browser, email, password);
  await investor.getByRole('tab', { name: /Personal Documents/ }).click();
  await expect(investor.getByText(title, { exact: true })).toBeVisible();

  // The Edit User Document modal: Escape closes it and the focus returns to Edit.
  const edit = row.getByRole('button', { name: `Edit ${title}` });
  await edit.click();
  const dialog = page.getByRole('dialog', { name: 'Edit User Document' });
  await expect(dialog.getByRole('textbox', { name: 'Document Title' })).toHaveValue(title);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(edit).toBeFocused();

  await edit.click();
  await dialog.getByRole('textbox', { name: 'Document Title' }).fill('');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(portalMessages.fillTitleAndCategory);
  const renamed = `${title} (signed)`;
  await dialog.getByRole('textbox', { name: 'Document Title' }).fill(renamed);
  await dialog.getByRole('combobox', { name: 'Document Category' }).selectOption('legal');
  await dialog.getByRole('textbox', { name: 'Tags' }).fill('signed, 2026');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Document Updated')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const renamedRow = personalDocumentsTable(page).getByRole('row').filter({ hasText: renamed });
  await expect(renamedRow).toContainText('Legal Documents');
  await investor.reload();
  await investor.getByRole('tab', { name: /Personal Documents/ }).click();
  await expect(investor.getByText(renamed, { exact: true })).toBeVisible();

  await renamedRow.getByRole('button', { name: `Delete ${renamed}` }).click();
  await page.getByRole('alertdialog', { name: `Delete ${renamed}?` }).getByRole('button', { name: 'Delete Document' }).click();
  await expect(toast(page, 'Document Deleted')).toBeVisible();
  await expect(personalDocumentsTable(page).getByRole('row').filter({ hasText: renamed })).toHaveCount(0);
  await investor.context().close();
});

test('the User Documents tab passes axe, with the edit modal open too', async ({ page }) => {
  await openAdminTab(page, 'User Documents');
  await expect(personalDocumentsTable(page).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByText('Loading user documents...')).toHaveCount(0);
  expect((await axeOf(page).include('[role="tabpanel"]').analyze()).violations).toEqual([]);
  await personalDocumentsTable(page).getByRole('button', { name: /^Edit / }).first().click();
  await expect(page.getByRole('dialog', { name: 'Edit User Document' })).toBeVisible();
  expect((await axeOf(page).include('[role="dialog"]').analyze()).violations).toEqual([]);
});
