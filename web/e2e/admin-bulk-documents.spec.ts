import { readFile } from 'node:fs/promises';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { createUserByApi, openAdminTab, pdfFile, toast, unique } from './support/admin';
import { queuedMailSubjects, waitForMails } from './support/mail';
import { signIn } from './support/portal';
import { axeOf } from './support/axe';

// The User Documents tab's bulk upload against the real server: the browser's dry run first,
// nothing sent before Confirm, then the results; a batch sent again publishes nothing new.

const bulkSection = (page: Page) => page.getByRole('region', { name: 'Bulk Upload User Documents' });

/** A quarter's investors folder on disk: manifest.csv and the files, as the folder picker reads it. */
function writeFolder(files: { name: string; buffer: Buffer }[], manifest: string): string {
  const root = mkdtempSync(join(tmpdir(), 'everest-bulk-'));
  const folder = join(root, '2026-Q1', 'investors');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'manifest.csv'), manifest);
  for (const file of files) writeFileSync(join(folder, file.name), file.buffer);
  return join(root, '2026-Q1');
}

async function investorPage(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  await page.getByRole('tab', { name: /Personal Documents/ }).click();
  return page;
}

test('an administrator publishes a manifest batch of 5 files for 3 investors after the preview; the same batch again publishes nothing new', async ({
  page,
  browser,
  request,
}) => {
  // The whole journey: two administrator tabs, three investors signing in, two uploads. On the
  // shared build machine it takes 25-40 s, past the default budget of 30 s.
  test.setTimeout(120_000);
  const investors = await Promise.all(
    ['a', 'b', 'c'].map(async (letter) => {
      const email = `${unique(`bulk-${letter}-`)}@example.com`;
      const { password } = await createUserByApi(request, { email, name: `Bulk ${letter.toUpperCase()}` });
      return { email, password };
    }),
  );
  const [a, b, c] = investors as [(typeof investors)[number], (typeof investors)[number], (typeof investors)[number]];
  const tag = unique('');
  const rows = [
    { investor: a, file: pdfFile(`k1-a-${tag}.pdf`), category: 'tax', title: `K-1 2025 A ${tag}` },
    { investor: a, file: pdfFile(`statement-a-${tag}.pdf`), category: 'financial', title: `Statement A ${tag}` },
    { investor: b, file: pdfFile(`k1-b-${tag}.pdf`), category: 'tax', title: `K-1 2025 B ${tag}` },
    { investor: b, file: pdfFile(`agreement-b-${tag}.pdf`), category: 'legal', title: `Agreement B ${tag}` },
    { investor: c, file: pdfFile(`k1-c-${tag}.pdf`), category: 'tax', title: `K-1 2025 C ${tag}` },
  ];
  const stranger = pdfFile(`stranger-${tag}.pdf`);
  const stray = pdfFile(`notes-${tag}.pdf`);
  const manifest = [
    'email,filename,document_category,title',
    ...rows.map((r) => `${r.investor.email},${r.file.name},${r.category},${r.title}`),
    `${unique('nobody-')}@example.com,${stranger.name},tax,Stranger`,
  ].join('\n');
  const folder = writeFolder([...rows.map((r) => r.file), stranger, stray], manifest);

  // A second administrator tab prepares the same batch, picked file by file without the stray one.
  const second = await (await browser.newContext()).newPage();
  await openAdminTab(second, 'User Documents');
  const secondSection = bulkSection(second);
  await secondSection.getByLabel('CSV manifest').setInputFiles({ name: 'manifest.csv', mimeType: 'text/csv', buffer: Buffer.from(manifest) });
  await secondSection.getByLabel('Documents', { exact: true }).setInputFiles([...rows.map((r) => r.file), stranger]);
  await secondSection.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(secondSection.getByRole('heading', { name: 'Upload Preview' })).toBeFocused();
  await expect(secondSection.getByRole('list', { name: 'Rows per outcome' })).toContainText('Will be published: 5');

  await openAdminTab(page, 'User Documents');
  const section = bulkSection(page);
  await expect(section.getByRole('link', { name: 'View Instructions' })).toHaveAttribute('target', '_blank');
  // Nothing chosen: 'Missing Files', and nothing is asked of the server.
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(section.getByRole('alert')).toContainText('Missing Files');

  await section.getByLabel('Or a whole folder').setInputFiles(folder);
  await section.getByRole('checkbox', { name: /Send an email notification/ }).check();
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  const heading = section.getByRole('heading', { name: 'Upload Preview' });
  await expect(heading).toBeFocused();
  const counts = section.getByRole('list', { name: 'Rows per outcome' });
  await expect(counts).toContainText('Will be published: 5');
  await expect(counts).toContainText('User not found: 1');
  await expect(counts).toContainText('Unprocessed files: 1');
  const previewTable = section.getByRole('table', { name: 'Upload preview' });
  for (const r of rows) {
    const row = previewTable.getByRole('row').filter({ hasText: r.file.name });
    await expect(row).toContainText(r.investor.email);
    await expect(row).toContainText(r.title);
    await expect(row).toContainText('Will be published');
  }
  await expect(previewTable.getByRole('row').filter({ hasText: stranger.name })).toContainText('User not found');
  await expect(previewTable.getByRole('row').filter({ hasText: stranger.name })).toContainText('7');
  await expect(section).toContainText(stray.name);
  // Nothing has been sent yet: no investor has a queued e-mail.
  expect(await queuedMailSubjects(a.email)).toEqual([]);

  // Issue 32 case 7: the e-mail is said and confirmed first: three investors, one digest each.
  await section.getByRole('button', { name: 'Confirm & Upload 5 Documents' }).click();
  await page.getByRole('alertdialog', { name: 'This will e-mail 3 people' }).getByRole('button', { name: 'Publish and Send E-mails' }).click();
  const results = section.getByRole('heading', { name: 'Upload Results' });
  await expect(results).toBeFocused();
  await expect(section.getByTestId('bulk-results-summary')).toHaveText(
    '5 documents published. 1 failed. 3 people were e-mailed, one e-mail each listing all of their new documents.',
  );
  await expect(section.getByRole('list', { name: 'Successful' }).getByRole('listitem')).toHaveCount(5);
  await expect(section.getByRole('list', { name: 'Failed' })).toHaveText(`${stranger.name}: Row 7: User not found`);
  await expect(section.getByRole('list', { name: 'Unprocessed' })).toHaveText(stray.name);
  await expect(toast(page, 'Bulk Upload Complete')).toBeVisible();

  // One digest each, listing every new document of theirs; queued with the batch, so final now.
  for (const investor of investors) {
    const mine = rows.filter((r) => r.investor === investor);
    expect(await queuedMailSubjects(investor.email)).toHaveLength(1);
    const [mail] = await waitForMails(investor.email, 1);
    for (const r of mine) expect(mail).toContain(r.title);
  }

  // Each investor sees exactly their own documents.
  for (const investor of investors) {
    const portal = await investorPage(browser, investor.email, investor.password);
    const mine = rows.filter((r) => r.investor === investor).length;
    await expect(portal.getByRole('tab', { name: `Personal Documents (${mine})` })).toBeVisible();
    for (const r of rows) {
      await expect(portal.getByText(r.title, { exact: true })).toHaveCount(r.investor === investor ? 1 : 0);
    }
    await portal.context().close();
  }

  // The other tab confirms the same batch (picked otherwise, so another Idempotency-Key): the
  // server plans it again and publishes nothing new.
  await secondSection.getByRole('button', { name: 'Confirm & Upload 5 Documents' }).click();
  await expect(secondSection.getByRole('heading', { name: 'Upload Results' })).toBeFocused();
  // Issue 32 case 6: what already was published is said as such, not counted among the failures.
  await expect(secondSection.getByTestId('bulk-results-summary')).toHaveText('Nothing new was published; 5 already published. 1 failed.');
  await expect(secondSection.getByRole('list', { name: 'Successful' })).toHaveCount(0);
  await expect(secondSection.getByRole('list', { name: 'Already published' }).getByRole('listitem')).toHaveCount(5);
  await expect(secondSection.getByRole('list', { name: 'Failed' })).toHaveText(`${stranger.name}: Row 7: User not found`);
  for (const investor of investors) expect(await queuedMailSubjects(investor.email)).toHaveLength(1);

  // Chosen once more, the preview already says so, and Confirm is not offered.
  await secondSection.getByRole('button', { name: 'Close Results' }).click();
  await expect(secondSection.getByRole('heading', { name: 'Bulk Upload User Documents' })).toBeFocused();
  await secondSection.getByLabel('Or a whole folder').setInputFiles(folder);
  await secondSection.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(secondSection.getByRole('heading', { name: 'Upload Preview' })).toBeFocused();
  await expect(secondSection.getByRole('list', { name: 'Rows per outcome' })).toContainText('Already published: 5');
  await expect(secondSection.getByRole('button', { name: /Confirm & Upload/ })).toBeDisabled();
  await expect(secondSection.getByText('Nothing new would be published')).toBeVisible();
  await second.context().close();
});

test("a manifest without rows says 'No data found in CSV' and sends nothing", async ({ page }) => {
  await openAdminTab(page, 'User Documents');
  const section = bulkSection(page);
  await section.getByLabel('CSV manifest').setInputFiles({ name: 'manifest.csv', mimeType: 'text/csv', buffer: Buffer.from('email,filename,document_category,title\n\n') });
  await section.getByLabel('Documents', { exact: true }).setInputFiles(pdfFile('lonely.pdf'));
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(section.getByRole('alert')).toContainText('No data found in CSV');
  await expect(section.getByRole('heading', { name: 'Upload Preview' })).toHaveCount(0);
});

test('the bulk upload preview passes axe and fits a 375 px phone', async ({ page, request }) => {
  // axe over a preview table takes 10-20 s when the shared machine is busy.
  test.setTimeout(60_000);
  const email = `${unique('bulk-axe-')}@example.com`;
  await createUserByApi(request, { email, name: 'Axe Person' });
  await page.setViewportSize({ width: 375, height: 800 });
  await openAdminTab(page, 'User Documents');
  const section = bulkSection(page);
  const file = pdfFile('axe.pdf');
  await section.getByLabel('CSV manifest').setInputFiles({
    name: 'manifest.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`email,filename,document_category,title\n${email},axe.pdf,tax,Axe K-1\n,missing.pdf,tax,\n`),
  });
  await section.getByLabel('Documents', { exact: true }).setInputFiles(file);
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Preview' })).toBeFocused();
  await expect(section.getByRole('list', { name: 'Rows per outcome' })).toContainText('Missing fields: 1');
  // The section only: the rest of the tab has its own axe test (admin-documents.spec.ts).
  expect((await axeOf(page).include('section[aria-labelledby="bulk-upload-title"]').analyze()).violations).toEqual([]);
  // The page never scrolls sideways on a phone; the table scrolls inside its box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test('the instructions page gives the steps, the categories and the folder layout, and generates bulk-upload-template.csv', async ({ page }) => {
  await page.goto('/instructions');
  await expect(page.getByRole('heading', { level: 1, name: 'Bulk Document Upload Instructions' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Steps' }).getByRole('listitem')).toHaveCount(4);
  const categories = page.getByRole('region', { name: 'Categories' });
  for (const label of ['Tax Documents', 'Personal Documents', 'Legal Documents']) await expect(categories).toContainText(label);
  const layout = page.getByRole('region', { name: 'Folder layout' });
  await expect(layout).toContainText('<year>-Q<n>/');
  await expect(layout).toContainText('<Property name or General>/');
  await expect(layout).toContainText('manifest.csv');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download Template' }).click()]);
  expect(download.suggestedFilename()).toBe('bulk-upload-template.csv');
  const text = await readFile(await download.path(), 'utf8');
  expect(text.startsWith('\uFEFFemail,filename,document_category,title,description,document_date,tags,correction_note\r\n')).toBe(true);
  expect(text).toContain('"k1, 2025"');
  expect((await axeOf(page).analyze()).violations).toEqual([]);
});
