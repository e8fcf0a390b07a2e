import { expect, test, type Page } from '@playwright/test';
import { publishingMessages } from '@everest/core/domain';
import { adminToken, createUserByApi, openAdminTab, toast, unique } from './support/admin';
import { queuedMailSubjects, waitForMails } from './support/mail';
import { adminDocumentTitles, createProperty, investorPortal, manifestCsv, pdfBytes, runTag, writeFolder } from './support/publishing';

// Issue 32 in the browser: what an upload says before it e-mails anyone (case 7), the property
// picker and its warning, the bulk preview's Period column and encoding (case 4), a malformed
// manifest refused whole (case 1), and a quarter folder's two halves published as one batch.

const bulkSection = (page: Page) => page.getByRole('region', { name: 'Bulk Upload User Documents' });
const uploadForm = (page: Page) => page.getByRole('form', { name: 'Upload Document' });

test('the property picker lists the properties investors are shown first and marks the others; a property nobody can read is warned of before the upload', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const tag = runTag();
  const hidden = `Hidden Court ${tag}`;
  const shown = `Shown Court ${tag}`;
  const empty = `Empty Court ${tag}`;
  await createProperty(request, token, hidden, { investorRelations: false });
  await createProperty(request, token, shown);
  await createProperty(request, token, empty);
  await createUserByApi(request, { email: `${unique('shown-')}@example.com`, properties: [shown] }, token);

  await openAdminTab(page, 'Documents');
  const picker = uploadForm(page).getByRole('combobox', { name: 'Property' });
  // The picker holds only General until the property list has come (a fresh clone's run read it then).
  await expect(picker.locator('option').filter({ hasText: shown })).toBeAttached();
  const labels = await picker.locator('option').allTextContents();
  expect(labels[0]).toBe('General');
  expect(labels).toContain(shown);
  expect(labels).toContain(`${hidden} (not shown to investors)`);
  // Every marked property comes after every shown one.
  const firstMarked = labels.findIndex((label) => label.endsWith('(not shown to investors)'));
  expect(labels.slice(firstMarked).every((label) => label.endsWith('(not shown to investors)'))).toBe(true);

  const warning = uploadForm(page).getByTestId('no-reader-warning');
  await picker.selectOption(hidden);
  await expect(warning).toContainText('No investor can see this document');
  await expect(warning).toContainText(`${hidden} is not shown to investors`);
  await picker.selectOption(shown);
  await expect(warning).toHaveCount(0);
  // A property investors are shown, but nobody may read: the same warning, with its own reason.
  await picker.selectOption(empty);
  await expect(warning).toContainText(`No active investor has access to ${empty}`);
  // Nothing was uploaded: the warning comes with the choice, before any file travels.
  await expect(uploadForm(page).getByRole('textbox', { name: 'Title' })).toHaveValue('');
});

test('an upload with notification says how many people it will e-mail; Cancel and Escape send nothing and give the focus back; the same file again publishes nothing new', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const tag = runTag();
  const property = `Notify Court ${tag}`;
  await createProperty(request, token, property);
  const investors = [`${unique('count-a-')}@example.com`, `${unique('count-b-')}@example.com`];
  for (const email of investors) await createUserByApi(request, { email, properties: [property] }, token);
  const title = `Q3 Report ${tag}`;
  const file = { name: 'q3-report.pdf', mimeType: 'application/pdf', buffer: pdfBytes(`count ${tag}`) };

  await openAdminTab(page, 'Documents');
  const form = uploadForm(page);
  const fill = async () => {
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await form.getByRole('combobox', { name: 'Property' }).selectOption(property);
    await form.getByLabel('File').setInputFiles(file);
    await form.getByRole('checkbox', { name: /Send an email notification/ }).check();
  };
  await fill();
  const upload = form.getByRole('button', { name: 'Upload Document' });
  const dialog = page.getByRole('alertdialog', { name: 'This will e-mail 2 people' });

  await upload.click();
  await expect(dialog).toBeVisible();
  // Cancel has the focus first: Enter never sends by accident.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(upload).toBeFocused();

  await upload.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(upload).toBeFocused();
  // Nothing was uploaded, and nobody was e-mailed.
  expect(await adminDocumentTitles(request, token)).not.toContain(title);
  for (const email of investors) expect(await queuedMailSubjects(email)).toEqual([]);

  await upload.click();
  await dialog.getByRole('button', { name: 'Upload and Send E-mails' }).click();
  await expect(toast(page, 'Document Uploaded')).toBeVisible();
  for (const email of investors) expect(await queuedMailSubjects(email)).toHaveLength(1);
  // Case 6: the administrator's own 'Your Documents' below the panel lists it at once, no reload.
  await expect(page.getByRole('tabpanel', { name: 'Property Documents', exact: true }).getByText(title, { exact: true })).toBeVisible();

  // The same file again (a second click, a retry from another tab): nothing new, nobody e-mailed twice.
  await fill();
  await upload.click();
  await dialog.getByRole('button', { name: 'Upload and Send E-mails' }).click();
  await expect(form.getByRole('status')).toContainText('Nothing new was published and nobody was e-mailed');
  await expect(form.getByRole('status')).toContainText(`${property} already has this file as "${title}"`);
  expect((await adminDocumentTitles(request, token)).filter((t) => t === title)).toHaveLength(1);
  for (const email of investors) expect(await queuedMailSubjects(email)).toHaveLength(1);
});

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
  await expect(section).toContainText('Read as Windows-1252 (Excel).');
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

test('a quarter folder publishes both halves with one preview, one confirmation and one e-mail per reader; Cancel sends nothing', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const tag = runTag();
  const property = `Both Halves ${tag}`;
  await createProperty(request, token, property);
  const investors = [`${unique('halves-a-')}@example.com`, `${unique('halves-b-')}@example.com`];
  for (const email of investors) await createUserByApi(request, { email, properties: [property] }, token);
  const report = `Q3 Report ${tag}`;
  const folder = writeFolder('2026-Q3', {
    [`properties/${property}/${report}.pdf`]: pdfBytes(`report ${tag}`),
    'investors/manifest.csv': manifestCsv(investors.map((email, i) => [email, `k1-${i}.pdf`, 'tax', `K-1 ${i} ${tag}`, ''])),
    'investors/k1-0.pdf': pdfBytes(`k1 0 ${tag}`),
    'investors/k1-1.pdf': pdfBytes(`k1 1 ${tag}`),
  });

  await openAdminTab(page, 'User Documents');
  const section = bulkSection(page);
  await section.getByLabel('Or a whole folder').setInputFiles(folder);
  await expect(section.getByTestId('bulk-period')).toContainText('Q3 2026');
  await section.getByRole('checkbox', { name: /Send an email notification/ }).check();
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Preview' })).toBeFocused();
  await expect(section.getByRole('list', { name: 'Rows per outcome' })).toContainText('Will be published: 3');
  const properties = section.getByRole('table', { name: 'Property documents' });
  await expect(properties.getByRole('row').filter({ hasText: report })).toContainText(`Will be published${report}${property}Q3 2026${report}.pdf`);
  const personal = section.getByRole('table', { name: 'Upload preview' });
  for (const [i, email] of investors.entries()) {
    const row = personal.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText(`K-1 ${i} ${tag}`);
    await expect(row.getByRole('cell').nth(4)).toHaveText('Q3 2026');
  }

  // Two groups (the property's readers and the personal rows) may be the same people: an upper bound.
  const confirm = section.getByRole('button', { name: 'Confirm & Upload 3 Documents' });
  await confirm.click();
  const dialog = page.getByRole('alertdialog', { name: 'This will e-mail up to 4 people' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(confirm).toBeFocused();
  expect(await adminDocumentTitles(request, token)).not.toContain(report);
  for (const email of investors) expect(await queuedMailSubjects(email)).toEqual([]);

  await confirm.click();
  await dialog.getByRole('button', { name: 'Publish and Send E-mails' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Results' })).toBeFocused();
  await expect(section.getByTestId('bulk-results-summary')).toHaveText(
    '3 documents published (1 property, 2 personal). 2 people were e-mailed, one e-mail each listing all of their new documents.',
  );
  // One digest each, naming the property's report and their own K-1.
  for (const [i, email] of investors.entries()) {
    expect(await queuedMailSubjects(email)).toHaveLength(1);
    const [mail] = await waitForMails(email, 1);
    expect(mail).toContain(report);
    expect(mail).toContain(`K-1 ${i} ${tag}`);
    expect(mail).not.toContain(`K-1 ${1 - i} ${tag}`);
  }
});
