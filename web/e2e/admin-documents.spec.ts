import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { portalMessages } from '@everest/core/domain';
import { createUserByApi, investorPropertyNames, openAdminTab, pdfFile, toast, unique } from './support/admin';
import { signIn } from './support/portal';

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

test('the Documents tab passes axe', async ({ page }) => {
  await openAdminTab(page, 'Documents');
  await expect(documentsTable(page).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByText('Loading documents...')).toHaveCount(0);
  const results = await new AxeBuilder({ page }).include('[role="tabpanel"]').analyze();
  expect(results.violations).toEqual([]);
});
