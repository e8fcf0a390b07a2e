import { expect, test, type Browser, type Page } from '@playwright/test';
import { portalMessages, publishingMessages } from '@everest/core/domain';
import { adminToken, createUserByApi, openAdminTab, unique } from './support/admin';
import { queuedMailSubjects, waitForMails } from './support/mail';
import { createProperty, investorPortal, manifestCsv, oversizedPdf, pdfBytes, runTag, writeFolder } from './support/publishing';

// Issue 32's acceptance test: a whole quarter folder, both halves and deliberately bad rows,
// published in the browser as staff publish it; then three investors sign in, and each sees
// exactly their documents in the right quarter and got exactly one e-mail; then the same
// publication again changes nothing.

const bulkSection = (page: Page) => page.getByRole('region', { name: 'Bulk Upload User Documents' });

/** What an investor's portal was sent, of this run's documents only: kind, title, where, when. */
async function seenBy(browser: Browser, email: string, password: string, tag: string): Promise<string[]> {
  const page = await (await browser.newContext()).newPage();
  const documents = await investorPortal(page, email, password);
  const mine = documents
    .filter((d) => d.title.includes(tag))
    .map((d) => (d.documentType === 'property' ? `property ${d.property}: ${d.title} ${d.quarter} ${d.year}` : `personal: ${d.title} ${d.quarter} ${d.year}`))
    .sort();
  // What the portal shows: the personal ones under their quarter's heading, the property ones listed.
  for (const d of documents.filter((doc) => doc.title.includes(tag))) {
    if (d.documentType === 'personal') {
      await page.getByRole('tab', { name: /Personal Documents/ }).click();
      // The list right under the quarter's heading (one year here: the investors are new).
      const quarter = page.getByRole('tabpanel').getByRole('heading', { name: d.quarter, exact: true }).locator('xpath=following-sibling::ul[1]');
      await expect(quarter.getByText(d.title, { exact: true })).toBeVisible();
    } else {
      await page.getByRole('tab', { name: /Property Documents/ }).click();
      // Under its property's heading: the same notice is listed once under each of its two properties.
      const group = page.getByRole('tabpanel').locator('section').filter({ has: page.getByRole('heading', { level: 3, name: d.property, exact: true }) });
      await expect(group.getByText(d.title, { exact: true })).toBeVisible();
    }
  }
  await page.context().close();
  return mine;
}

test('a quarter folder with both halves and bad rows is published once in the browser: each investor sees exactly their documents in the right quarter and gets one e-mail; publishing it again changes nothing', async ({
  page,
  browser,
  request,
}) => {
  // Three investors signing in twice each, two administrator tabs and two publications: on the
  // shared machine this takes a minute or more.
  test.setTimeout(240_000);
  const token = await adminToken(request);
  const tag = runTag();
  const heartland = `Heartland ${tag}`;
  const sunset = `Sunset ${tag}`;
  await createProperty(request, token, heartland);
  await createProperty(request, token, sunset);
  const [ann, bob, cat] = await Promise.all(
    [
      { name: 'ann', properties: [heartland, sunset] },
      { name: 'bob', properties: [heartland] },
      { name: 'cat', properties: [sunset] },
    ].map(async ({ name, properties }) => {
      const email = `${unique(`${name}-`)}@example.com`;
      const { password } = await createUserByApi(request, { email, properties }, token);
      return { email, password };
    }),
  );
  if (!ann || !bob || !cat) throw new Error('unreachable');

  const notice = pdfBytes(`capital call ${tag}`);
  const report = pdfBytes(`q3 report ${tag}`);
  const k1cat = pdfBytes(`k1 cat ${tag}`);
  const folder = writeFolder('2026-Q3', {
    // The same notice for both properties: two documents (case 2).
    [`properties/${heartland}/Capital Call Notice ${tag}.pdf`]: notice,
    [`properties/${sunset}/Capital Call Notice ${tag}.pdf`]: notice,
    [`properties/${heartland}/Q3 Report ${tag}.pdf`]: report,
    // Its '- Copy' twin: the original keeps its name, the copy is not published (case 5).
    [`properties/${heartland}/Q3 Report ${tag} - Copy.pdf`]: report,
    // A text file named .pdf: refused by its content (case 5).
    [`properties/${sunset}/Rent Roll ${tag}.pdf`]: 'Unit, Rent\n1A, 1200\n',
    'investors/manifest.csv': manifestCsv([
      [ann.email, 'k1-ann.pdf', 'tax', `K-1 Ann ${tag}`, ''],
      // Its own date wins over the folder's quarter (case 4).
      [bob.email, 'k1-bob.pdf', 'tax', `K-1 Bob ${tag}`, '2026-02-10'],
      [cat.email, 'k1-cat.pdf', 'tax', `K-1 Cat ${tag}`, ''],
      // The same content under a copy's name for the same investor (case 5).
      [cat.email, 'k1-cat - Copy.pdf', 'tax', `K-1 Cat again ${tag}`, ''],
      // Over 10 MB: refused with the size, not 'file not found' (cases 5 and 6).
      [cat.email, 'scan-cat.pdf', 'personal', `Scan Cat ${tag}`, ''],
      // Nobody has this address.
      [`${unique('nobody-')}@example.com`, 'k1-ann.pdf', 'tax', `Stranger ${tag}`, ''],
    ]),
    'investors/k1-ann.pdf': pdfBytes(`k1 ann ${tag}`),
    'investors/k1-bob.pdf': pdfBytes(`k1 bob ${tag}`),
    'investors/k1-cat.pdf': k1cat,
    'investors/k1-cat - Copy.pdf': k1cat,
    'investors/scan-cat.pdf': oversizedPdf(),
  });

  // A second administrator tab previews the same folder before anything is published.
  const second = await (await browser.newContext()).newPage();
  await openAdminTab(second, 'User Documents');
  await bulkSection(second).getByLabel('Or a whole folder').setInputFiles(folder);
  await bulkSection(second).getByRole('button', { name: 'Preview Upload' }).click();
  await expect(bulkSection(second).getByRole('list', { name: 'Rows per outcome' })).toContainText('Will be published: 6');

  await openAdminTab(page, 'User Documents');
  const section = bulkSection(page);
  await section.getByLabel('Or a whole folder').setInputFiles(folder);
  await expect(section.getByTestId('bulk-period')).toContainText('Q3 2026');
  await section.getByRole('checkbox', { name: /Send an email notification/ }).check();
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Preview' })).toBeFocused();

  // The preview promises exactly what will happen: 3 property documents, 3 personal ones.
  const counts = section.getByRole('list', { name: 'Rows per outcome' });
  await expect(counts).toContainText('Will be published: 6');
  await expect(counts).toContainText('User not found: 1');
  await expect(counts).toContainText('File refused: 1');
  await expect(counts).toContainText('Listed twice: 1');
  const properties = section.getByRole('table', { name: 'Property documents' });
  await expect(properties.getByRole('row')).toHaveCount(4);
  for (const [property, title] of [
    [heartland, `Capital Call Notice ${tag}`],
    [sunset, `Capital Call Notice ${tag}`],
    [heartland, `Q3 Report ${tag}`],
  ] as const) {
    await expect(properties.getByRole('row').filter({ hasText: property }).filter({ hasText: `${title}.pdf` })).toContainText(
      `Will be published${title}${property}Q3 2026`,
    );
  }
  const rows = section.getByRole('table', { name: 'Upload preview' });
  const row = (file: string) => rows.getByRole('row').filter({ hasText: file });
  await expect(rows.getByRole('row').filter({ hasText: ann.email }).first().getByRole('cell').nth(4)).toHaveText('Q3 2026');
  await expect(rows.getByRole('row').filter({ hasText: bob.email }).getByRole('cell').nth(4)).toHaveText('Q1 2026');
  await expect(row('k1-cat - Copy.pdf')).toContainText(publishingMessages.twinForInvestor('k1-cat.pdf'));
  await expect(row('scan-cat.pdf')).toContainText(publishingMessages.tooLarge);
  await expect(rows.getByRole('row').filter({ hasText: 'Stranger' })).toContainText(portalMessages.userNotFound);
  const notSent = section.getByRole('list', { name: 'Not sent' });
  await expect(notSent).toContainText(`Q3 Report ${tag} - Copy.pdf: ${publishingMessages.twinForProperty(`Q3 Report ${tag}.pdf`)}`);
  await expect(notSent).toContainText(`Rent Roll ${tag}.pdf: ${publishingMessages.contentNotAsNamed('.pdf')}`);
  await expect(notSent).toContainText(`scan-cat.pdf: ${publishingMessages.tooLarge}`);
  // Nothing has been sent yet.
  for (const investor of [ann, bob, cat]) expect(await queuedMailSubjects(investor.email)).toEqual([]);

  // One confirmation, which says whom it e-mails: Heartland's 2 readers, Sunset's 2, and 3 investors (at most 7).
  await section.getByRole('button', { name: 'Confirm & Upload 6 Documents' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'This will e-mail up to 7 people' });
  await dialog.getByRole('button', { name: 'Publish and Send E-mails' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Results' })).toBeFocused();
  await expect(section.getByTestId('bulk-results-summary')).toHaveText(
    '6 documents published (3 property, 3 personal). 3 failed. 3 people were e-mailed, one e-mail each listing all of their new documents.',
  );
  const failed = section.getByRole('list', { name: 'Failed' });
  await expect(failed).toContainText(`scan-cat.pdf: Row 6: ${publishingMessages.tooLarge} It was not sent.`);
  await expect(failed).toContainText(`Row 7: ${portalMessages.userNotFound}`);

  // Each investor: exactly their documents, in their quarter, and ONE e-mail naming all of them.
  const expected = {
    [ann.email]: [
      `personal: K-1 Ann ${tag} Q3 2026`,
      `property ${heartland}: Capital Call Notice ${tag} Q3 2026`,
      `property ${heartland}: Q3 Report ${tag} Q3 2026`,
      `property ${sunset}: Capital Call Notice ${tag} Q3 2026`,
    ],
    [bob.email]: [`personal: K-1 Bob ${tag} Q1 2026`, `property ${heartland}: Capital Call Notice ${tag} Q3 2026`, `property ${heartland}: Q3 Report ${tag} Q3 2026`],
    [cat.email]: [`personal: K-1 Cat ${tag} Q3 2026`, `property ${sunset}: Capital Call Notice ${tag} Q3 2026`],
  };
  const mails = new Map<string, string>();
  for (const investor of [ann, bob, cat]) {
    expect(await seenBy(browser, investor.email, investor.password, tag)).toEqual(expected[investor.email]);
    expect(await queuedMailSubjects(investor.email)).toHaveLength(1);
    const [mail] = await waitForMails(investor.email, 1);
    mails.set(investor.email, mail ?? '');
  }
  expect(mails.get(ann.email)).toContain(`K-1 Ann ${tag}`);
  expect(mails.get(ann.email)).toContain(`Q3 Report ${tag}`);
  expect(mails.get(bob.email)).not.toContain(`K-1 Ann ${tag}`);
  expect(mails.get(cat.email)).not.toContain(`Q3 Report ${tag}`);

  // The same publication again, from the tab that previewed it before: nothing new, nobody e-mailed.
  const secondSection = bulkSection(second);
  await secondSection.getByRole('button', { name: 'Confirm & Upload 6 Documents' }).click();
  await expect(secondSection.getByRole('heading', { name: 'Upload Results' })).toBeFocused();
  await expect(secondSection.getByTestId('bulk-results-summary')).toContainText('Nothing new was published; 6 already published.');
  await expect(secondSection.getByRole('list', { name: 'Successful' })).toHaveCount(0);
  await expect(secondSection.getByRole('list', { name: 'Already published' }).getByRole('listitem')).toHaveCount(6);
  await second.context().close();

  // And chosen once more, the preview says so and offers nothing to confirm.
  await section.getByRole('button', { name: 'Close Results' }).click();
  await section.getByLabel('Or a whole folder').setInputFiles(folder);
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Preview' })).toBeFocused();
  await expect(counts).toContainText('Already published: 6');
  await expect(section.getByRole('button', { name: /Confirm & Upload/ })).toBeDisabled();

  for (const investor of [ann, bob, cat]) {
    expect(await seenBy(browser, investor.email, investor.password, tag)).toEqual(expected[investor.email]);
    expect(await queuedMailSubjects(investor.email)).toHaveLength(1);
  }
});
