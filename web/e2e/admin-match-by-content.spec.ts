import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { contentMatchingMessages } from '@everest/core/domain';
import { demoUsers } from '@everest/fixtures';
import { K1Maker, type K1Partner } from '@everest/fixtures/k1';
import { splitPdf } from '../src/lib/pdf';
import { adminToken, createUserByApi, openAdminTab, pickByEmail, unique } from './support/admin';
import { investorPortal, runTag, writeFolder } from './support/publishing';

// Issue 50's acceptance test: K-1s published without a manifest through "Match by content", as
// staff get them from the preparer: a folder of one PDF per partner, then one combined PDF. Each
// run corrects one row by hand and excludes one; then every investor signs in and sees exactly
// their own K-1, with the bytes of their file or of their section of the combined PDF.

const bulkSection = (page: Page) => page.getByRole('region', { name: 'Bulk Upload User Documents' });
const reviewRegion = (page: Page) => page.getByRole('region', { name: 'Match by content: review' });
const reviewRow = (review: Locator, text: string) => review.getByRole('row').filter({ hasText: text });

// The demo investors' TIN digits: a K-1 that printed one of them would have a demo investor as a
// candidate (on 4 December, Sarah Thompson's 5807 on Cat's K-1), and a matched row would need a person.
const demoLastFours = new Set(demoUsers.flatMap((user) => user.identifiers ?? []).map((identifier) => identifier.slice(-4)));

/** A partner as the preparer prints them, with a masked TIN whose digits no test's investor has on file. */
function partner(names: string[], seed: string): K1Partner {
  let digits: string;
  do digits = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
  while (demoLastFours.has(digits));
  return { name: names, address: ['1840 Oak Grove Ave.', 'Reno, NV 89501'], tin: `XXX-XX-${digits}`, type: 'Individual', seed };
}

/** What an investor's portal lists of personal documents, and the bytes of each. */
async function personalK1s(browser: Browser, email: string, password: string): Promise<{ title: string; bytes: Buffer }[]> {
  const page = await (await browser.newContext()).newPage();
  const documents = (await investorPortal(page, email, password)).filter((d) => d.documentType === 'personal');
  const token = await page.evaluate(() => localStorage.getItem('everest.investorToken'));
  const seen = [];
  for (const d of documents) {
    const response = await page.request.get(`/api/investor/download/${d.id}?type=user`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.ok()).toBe(true);
    seen.push({ title: d.title, bytes: await response.body() });
  }
  await page.context().close();
  return seen;
}

/** Preview, review, then the usual preview and Confirm: answers the results' summary. */
async function continueAndConfirm(page: Page, documents: number): Promise<string | null> {
  const section = bulkSection(page);
  await reviewRegion(page).getByRole('button', { name: 'Continue to Preview' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Preview' })).toBeFocused();
  await expect(section.getByRole('list', { name: 'Rows per outcome' })).toContainText(`Will be published: ${documents}`);
  await section.getByRole('button', { name: `Confirm & Upload ${documents} Documents` }).click();
  await expect(section.getByRole('heading', { name: 'Upload Results' })).toBeFocused();
  return section.getByTestId('bulk-results-summary').textContent();
}

/** Names a row's investor in its editor, searching by the investor's e-mail. */
async function nameInvestor(page: Page, review: Locator, rowKey: string, email: string) {
  await review.getByRole('button', { name: `Change ${rowKey}` }).click();
  const dialog = page.getByRole('dialog', { name: `Change ${rowKey}` });
  const investor = dialog.getByRole('combobox', { name: 'Investor' });
  await pickByEmail(page, investor, email);
  // The box shows the investor picked, "Name (e-mail)", no longer the e-mail typed.
  await expect(investor).toHaveValue(new RegExp(`\\(${email.replace(/\./g, '\\.')}\\)$`));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const change = review.getByRole('button', { name: `Change ${rowKey}`, exact: true });
  await expect(change).toBeFocused();
  await expect(review.getByRole('row').filter({ has: page.getByRole('button', { name: `Change ${rowKey}`, exact: true }) })).toContainText('Named by you');
}

test('K-1s without a manifest, a folder of single PDFs and a combined PDF, are matched by content, corrected and excluded by hand, and each investor sees exactly their own K-1 with its bytes', async ({
  page,
  browser,
  request,
}) => {
  // Two batches, five investors signing in: a minute or more on the shared machine.
  test.setTimeout(180_000);
  const tag = runTag();
  const token = await adminToken(request);
  const person = async (name: string, entity = '') => {
    const email = `${unique(`k1-${name.split(' ')[0]!.toLowerCase()}-`)}@example.com`;
    const { user, password } = await createUserByApi(request, { email, name: `${name} ${tag}`, entity }, token);
    return { id: user.id, email, password, name: `${name} ${tag}`, entity };
  };
  const ann = await person('Ann Quill');
  const bob = await person('Bob Reyes', `Reyes Ridge Trust ${tag}`);
  const cat = await person('Cat Moss');
  // Two investors who share a full name: one has an identifier of their own, printed on their K-1.
  const dan = await person('Dan Shaw');
  const danToo = await person('Dan Shaw');
  const trust = `Shaw Lakeside Trust ${tag}`;
  const edited = await request.post('/api/admin/edit-user', { headers: { Authorization: `Bearer ${token}` }, data: { userId: dan.id, identifiers: [trust] } });
  expect(edited.ok(), await edited.text()).toBe(true);

  const maker = new K1Maker();
  const singles = {
    'K1_2025_00017.pdf': await maker.k1(partner([ann.name], `${tag}-ann`)),
    // Two investors' names on one K-1: staff name the right one by hand.
    'K1_2025_00018.pdf': await maker.k1(partner([cat.name, `c/o ${ann.name}`], `${tag}-cat`)),
    // A scan: no text to read, excluded.
    'K1_2025_00019.pdf': await maker.scan(partner([bob.name], `${tag}-scan`)),
    'K1_2025_00020.pdf': await maker.k1(partner([dan.name, trust], `${tag}-dan`)),
  };
  const folder = writeFolder('2026-Q1', {
    ...Object.fromEntries(Object.entries(singles).map(([name, bytes]) => [`investors/${name}`, Buffer.from(bytes)])),
    'investors/notes.txt': 'From the preparer: K-1s for 2025.',
    'investors/.DS_Store': Buffer.from([0, 0, 0, 1]),
  });

  // The folder of single K-1s, in the browser.
  await openAdminTab(page, 'User Documents');
  const section = bulkSection(page);
  await section.getByRole('checkbox', { name: /Match by content/ }).check();
  await section.getByLabel('Year').selectOption('2026');
  await section.getByLabel('Quarter').selectOption('Q1');
  await section.getByLabel('Or a whole folder').setInputFiles(folder);
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  const review = reviewRegion(page);
  // PDF.js loads in each worker first: seconds on a busy machine.
  await expect(review.getByRole('heading', { name: 'Match by content: review' })).toBeFocused({ timeout: 30_000 });
  await expect(review.getByRole('list', { name: 'Rows' })).toContainText('2 ready (2 matched by content)');
  await expect(reviewRow(review, 'K1_2025_00017.pdf')).toContainText(`Matched${ann.name} (${ann.email})`);
  await expect(reviewRow(review, 'K1_2025_00017.pdf')).toContainText('2025 Schedule K-1');
  await expect(reviewRow(review, 'K1_2025_00018.pdf')).toContainText(contentMatchingMessages.severalInvestors('in this PDF'));
  await expect(reviewRow(review, 'K1_2025_00019.pdf')).toContainText(contentMatchingMessages.scan);
  // The shared full name beside Dan's own trust picks Dan, not the other Dan Shaw.
  await expect(reviewRow(review, 'K1_2025_00020.pdf')).toContainText(`Matched${dan.name} (${dan.email})`);
  await expect(reviewRow(review, 'K1_2025_00020.pdf')).not.toContainText(danToo.email);
  await expect(review).toContainText('notes.txt: Not a PDF');
  await expect(review).not.toContainText('.DS_Store');
  await expect(review.getByRole('button', { name: 'Continue to Preview' })).toBeDisabled();

  // Escape leaves a row's editor without a change, and the focus goes back to its button.
  await review.getByRole('button', { name: 'Change K1_2025_00017.pdf' }).click();
  await page.getByRole('dialog', { name: 'Change K1_2025_00017.pdf' }).getByRole('textbox', { name: 'Title' }).press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(review.getByRole('button', { name: 'Change K1_2025_00017.pdf' })).toBeFocused();
  await expect(reviewRow(review, 'K1_2025_00017.pdf')).toContainText('Matched');
  await nameInvestor(page, review, 'K1_2025_00018.pdf', cat.email);
  await review.getByRole('checkbox', { name: 'Exclude K1_2025_00019.pdf' }).check();
  await expect(review.getByRole('list', { name: 'Rows' })).toContainText('1 excluded');
  expect(await continueAndConfirm(page, 3)).toBe('3 documents published.');
  await section.getByRole('button', { name: 'Close Results' }).click();

  // The combined PDF: the preparer's cover letter, Bob's K-1 and the two pages after it that
  // carry no name, and the other Dan Shaw's K-1, whose only name is the shared one.
  const combined = await maker.combined([
    { partner: partner([bob.entity, bob.name], `${tag}-bob`), after: ['section-199a', 'state'] },
    { partner: partner([danToo.name], `${tag}-dan2`) },
  ]);
  await section.getByLabel('Documents', { exact: true }).setInputFiles({ name: 'K1_2025_package.pdf', mimeType: 'application/pdf', buffer: Buffer.from(combined) });
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  // PDF.js loads in each worker first: seconds on a busy machine.
  await expect(review.getByRole('heading', { name: 'Match by content: review' })).toBeFocused({ timeout: 30_000 });
  await expect(reviewRow(review, 'Page 1')).toContainText('Needs a person');
  await expect(reviewRow(review, 'Pages 2–4')).toContainText(`Matched${bob.name}`);
  await expect(reviewRow(review, 'Page 5')).toContainText(contentMatchingMessages.shared(danToo.name, 'on these pages'));
  await review.getByRole('checkbox', { name: 'Exclude K1_2025_package.pdf (page 1)' }).check();
  await nameInvestor(page, review, 'K1_2025_package.pdf (page 5)', danToo.email);
  expect(await continueAndConfirm(page, 2)).toBe('2 documents published.');

  // As each investor: exactly their own K-1, and its bytes: their file, or their section.
  const [bobSection, danTooSection] = await splitPdf(combined, [[2, 3, 4], [5]]);
  const expected = [
    { investor: ann, bytes: singles['K1_2025_00017.pdf'] },
    { investor: cat, bytes: singles['K1_2025_00018.pdf'] },
    { investor: dan, bytes: singles['K1_2025_00020.pdf'] },
    { investor: bob, bytes: bobSection! },
    { investor: danToo, bytes: danTooSection! },
  ];
  for (const { investor, bytes } of expected) {
    const seen = await personalK1s(browser, investor.email, investor.password);
    expect(seen.map((d) => d.title), investor.email).toEqual(['2025 Schedule K-1']);
    expect(Buffer.compare(seen[0]!.bytes, Buffer.from(bytes)), investor.email).toBe(0);
  }
  // The folder on disk is as staff left it: nothing was written into it.
  expect(readFileSync(join(folder, 'investors', 'notes.txt'), 'utf8')).toBe('From the preparer: K-1s for 2025.');
});
