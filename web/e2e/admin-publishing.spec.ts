import { expect, test, type Page } from '@playwright/test';
import { publishingMessages } from '@everest/core/domain';
import { adminToken, createUserByApi, openAdminTab, unique } from './support/admin';
import { queuedMailSubjects } from './support/mail';
import { investorPortal, manifestCsv, pdfBytes, runTag } from './support/publishing';

// Issue 32 in the browser: what an upload says before it e-mails anyone (case 7), the property
// picker and its warning, the bulk preview's Period column and encoding (case 4), a malformed
// manifest refused whole (case 1), and a quarter folder's two halves published as one batch.

const bulkSection = (page: Page) => page.getByRole('region', { name: 'Bulk Upload User Documents' });

test("the bulk preview shows each row's period (the chosen quarter, or the row's own date) and the encoding it read; the investor finds them there", async ({
  page,
  browser,
  request,
}) => {
  const token = await adminToken(request);
  const tag = runTag();
  const email = `${unique('period-')}@example.com`;
  const { password } = await createUserByApi(request, { email }, token);
  // Excel on Windows saves 'Relevé' as one byte 0xE9 (Windows-1252).
  const manifest = Buffer.from(
    manifestCsv([
      [email, `statement-${tag}.pdf`, 'financial', `Relevé ${tag}`, ''],
      [email, `k1-${tag}.pdf`, 'tax', `K-1 ${tag}`, '2026-08-03'],
    ]),
    'latin1',
  );

  await openAdminTab(page, 'User Documents');
  const section = bulkSection(page);
  await section.getByLabel('CSV manifest').setInputFiles({ name: 'manifest.csv', mimeType: 'text/csv', buffer: manifest });
  await section.getByLabel('Documents', { exact: true }).setInputFiles([
    { name: `statement-${tag}.pdf`, mimeType: 'application/pdf', buffer: pdfBytes(`statement ${tag}`) },
    { name: `k1-${tag}.pdf`, mimeType: 'application/pdf', buffer: pdfBytes(`k1 ${tag}`) },
  ]);
  await section.getByRole('combobox', { name: 'Year' }).selectOption('2025');
  await section.getByRole('combobox', { name: 'Quarter' }).selectOption('Q2');
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Preview' })).toBeFocused();
  await expect(section).toContainText('Read as Windows-1252.');
  const table = section.getByRole('table', { name: 'Upload preview' });
  await expect(table.getByRole('columnheader')).toHaveText(['Row', 'Outcome', 'E-mail', 'Title', 'Period', 'File']);
  const statement = table.getByRole('row').filter({ hasText: `statement-${tag}.pdf` });
  await expect(statement).toContainText(`Relevé ${tag}`);
  await expect(statement.getByRole('cell').nth(4)).toHaveText('Q2 2025');
  await expect(table.getByRole('row').filter({ hasText: `k1-${tag}.pdf` }).getByRole('cell').nth(4)).toHaveText('Q3 2026');

  await section.getByRole('button', { name: 'Confirm & Upload 2 Documents' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Results' })).toBeFocused();
  await expect(section.getByRole('list', { name: 'Successful' })).toContainText(`"Relevé ${tag}" for ${email}, Q2 2025`);

  const portal = await (await browser.newContext()).newPage();
  const documents = await investorPortal(portal, email, password);
  const personal = documents.filter((d) => d.documentType === 'personal');
  expect(personal.map((d) => [d.title, d.quarter, d.year]).sort()).toEqual([
    [`K-1 ${tag}`, 'Q3', 2026],
    [`Relevé ${tag}`, 'Q2', 2025],
  ]);
  await portal.context().close();
});

test("a manifest with an unclosed quote is refused whole: 'Line 2: a quoted field is not closed.', and nothing can be confirmed", async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const [first, second] = [`${unique('quote-a-')}@example.com`, `${unique('quote-b-')}@example.com`];
  for (const email of [first, second]) await createUserByApi(request, { email }, token);
  const manifest = [
    'email,filename,document_category,title',
    `${first},d.pdf,tax,"2025 K-1 for the ""Trust`,
    `${second},e.pdf,tax,Other K-1`,
  ].join('\n');

  await openAdminTab(page, 'User Documents');
  const section = bulkSection(page);
  await section.getByLabel('CSV manifest').setInputFiles({ name: 'manifest.csv', mimeType: 'text/csv', buffer: Buffer.from(manifest) });
  await section.getByLabel('Documents', { exact: true }).setInputFiles([
    { name: 'd.pdf', mimeType: 'application/pdf', buffer: pdfBytes(unique('d')) },
    { name: 'e.pdf', mimeType: 'application/pdf', buffer: pdfBytes(unique('e')) },
  ]);
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(section.getByRole('alert')).toContainText(publishingMessages.csvLine(2, publishingMessages.csv.quoteNotClosed));
  await expect(section.getByRole('heading', { name: 'Upload Preview' })).toHaveCount(0);
  await expect(section.getByRole('button', { name: /Confirm & Upload/ })).toHaveCount(0);
  for (const email of [first, second]) expect(await queuedMailSubjects(email)).toEqual([]);
});
