import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { investorDocumentsAnswer, loginAnswer, type InvestorDocument } from '@everest/core/contract';
import { bulkManifestMessages, folderPlanMessages, formatDate, publishingMessages } from '@everest/core/domain';
import { adminToken, createUserByApi, openAdminTab, pickByEmail, unique } from './support/admin';
import { createProperty, manifestCsv, pdfBytes, runTag, writeFolder } from './support/publishing';

// What a document is the same document as, in the browser's quarter folders: a changed property
// file corrects its own property's document, and a title reused every quarter is a new document
// each quarter, never a correction of the last one. Each preview names what a row corrects.

const bulkSection = (page: Page) => page.getByRole('region', { name: 'Bulk Upload User Documents' });

/** What the investor's portal lists, of this run's documents: the API the portal reads, as that investor. */
async function documentsOf(request: APIRequestContext, email: string, password: string, tag: string): Promise<InvestorDocument[]> {
  const login = await request.post('/api/investor/login', { data: { email, password } });
  expect(login.ok(), await login.text()).toBe(true);
  const { token } = loginAnswer.parse(await login.json());
  const answer = await request.get('/api/investor/documents', { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok()).toBe(true);
  return investorDocumentsAnswer.parse(await answer.json()).documents.filter((d) => d.title.includes(tag));
}

/** Chooses a folder, previews it, and answers the section once the preview has its focus. */
async function preview(page: Page, folder: string) {
  const section = bulkSection(page);
  await section.getByLabel('Or a whole folder').setInputFiles(folder);
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Preview' })).toBeFocused();
  return section;
}

async function confirm(page: Page, documents: number) {
  const section = bulkSection(page);
  await section.getByRole('button', { name: `Confirm & Upload ${documents} ${documents === 1 ? 'Document' : 'Documents'}` }).click();
  await expect(section.getByRole('heading', { name: 'Upload Results' })).toBeFocused();
  return section;
}

test('a changed property file corrects only its own property, and a title reused each quarter is a new document each quarter; the previews name what they correct', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const token = await adminToken(request);
  const tag = runTag();
  // Public, photo-less properties: named so that none lists before the seeded ones, whose first
  // card's photo the server-rendering test watches (an 'Aspen …' sorted ahead of 'Aspen Ridge').
  const properties = ['Sunset', 'Juniper', 'Mission'].map((name) => `${name} ${tag}`);
  for (const name of properties) await createProperty(request, token, name);
  const [sunset, juniper, mission] = properties as [string, string, string];
  const investor = async (name: string, access: string[]) => {
    const email = `${unique(`${name}-`)}@example.com`;
    return { email, password: (await createUserByApi(request, { email, properties: access }, token)).password };
  };
  const ann = await investor('ann', [sunset, juniper]);
  const mo = await investor('mo', [mission]);

  const update = `Q1 2026 Portfolio Update ${tag}`;
  const statement = `Quarterly Distribution Statement ${tag}`;
  const sameBytes = pdfBytes(`portfolio update ${tag}`);
  const q1 = writeFolder('2026-Q1', {
    ...Object.fromEntries(properties.map((p) => [`properties/${p}/${update}.pdf`, sameBytes])),
    'investors/manifest.csv': manifestCsv([[ann.email, 'statement.pdf', 'financial', statement, '']]),
    'investors/statement.pdf': pdfBytes(`statement Q1 ${tag}`),
  });

  await openAdminTab(page, 'User Documents');
  await preview(page, q1);
  await expect(bulkSection(page).getByRole('list', { name: 'Rows per outcome' })).toContainText('Will be published: 4');
  await confirm(page, 4);
  await expect(bulkSection(page).getByTestId('bulk-results-summary')).toContainText('4 documents published (3 property, 1 personal).');
  await bulkSection(page).getByRole('button', { name: 'Close Results' }).click();
  const [first] = (await documentsOf(request, mo.email, mo.password, tag)).filter((d) => d.title === update);
  if (!first) throw new Error("Mission's investor does not see the update");
  const firstPublished = formatDate(first.uploadedAt);

  // Mission Oaks' copy rewritten: its document gets version 2; the other two stay as they are.
  const fixed = pdfBytes(`portfolio update for Mission, fixed ${tag}`);
  writeFileSync(join(q1, 'properties', mission, `${update}.pdf`), fixed);
  const section = await preview(page, q1);
  const rows = section.getByRole('table', { name: 'Property documents' });
  const corrects = publishingMessages.corrects({ title: update, category: null, year: 2026, quarter: 'Q1', firstPublishedAt: first.uploadedAt });
  expect(corrects).toBe(`corrects ${update} (Q1 2026, first published ${firstPublished})`);
  await expect(rows.getByRole('row').filter({ hasText: mission })).toContainText(`Will be published${corrects}`);
  await expect(rows.getByRole('row').filter({ hasText: sunset })).toContainText('Already published');
  await expect(rows.getByRole('row').filter({ hasText: juniper })).toContainText('Already published');
  await confirm(page, 1);
  await expect(section.getByRole('list', { name: 'Successful' })).toContainText(`"${update}" for ${mission}, Q1 2026, ${corrects}`);
  await section.getByRole('button', { name: 'Close Results' }).click();

  // Mission's investor: one entry of that title, the corrected version. Ann: two, neither corrected.
  const moDocuments = await documentsOf(request, mo.email, mo.password, tag);
  expect(moDocuments.map((d) => [d.title, d.version, d.quarter])).toEqual([[update, 2, 'Q1']]);
  expect((await documentsOf(request, ann.email, ann.password, tag)).filter((d) => d.title === update).map((d) => d.version)).toEqual([1, 1]);

  // Q2's folder gives the statement's title again, with Q2's statement: a new document, filed under Q2.
  const q2 = writeFolder('2026-Q2', {
    'investors/manifest.csv': manifestCsv([[ann.email, 'statement.pdf', 'financial', statement, '']]),
    'investors/statement.pdf': pdfBytes(`statement Q2 ${tag}`),
  });
  await preview(page, q2);
  const manifestRows = bulkSection(page).getByRole('table', { name: 'Upload preview' });
  await expect(manifestRows.getByRole('row').filter({ hasText: ann.email })).toContainText(`Will be published${ann.email}${statement}`);
  await expect(manifestRows.getByRole('row').filter({ hasText: ann.email })).not.toContainText('corrects');
  await expect(bulkSection(page).getByRole('list', { name: 'Rows per outcome' })).not.toContainText('Corrections');
  await confirm(page, 1);
  await expect(bulkSection(page).getByRole('list', { name: 'Successful' })).toContainText(`statement.pdf: "${statement}" for ${ann.email}, Q2 2026`);
  await expect(bulkSection(page).getByRole('list', { name: 'Successful' })).not.toContainText('corrects');
  await bulkSection(page).getByRole('button', { name: 'Close Results' }).click();
  const statements = () => documentsOf(request, ann.email, ann.password, tag).then((all) => all.filter((d) => d.title === statement));
  expect((await statements()).map((d) => [d.quarter, d.version]).sort()).toEqual([
    ['Q1', 1],
    ['Q2', 1],
  ]);

  // Q2's statement sent again, changed: the preview and the results name Q2's, which alone gets version 2.
  writeFileSync(join(q2, 'investors', 'statement.pdf'), pdfBytes(`statement Q2, restated ${tag}`));
  await preview(page, q2);
  const q2Document = (await statements()).find((d) => d.quarter === 'Q2')!;
  const correctsQ2 = bulkManifestMessages.corrects({ title: statement, category: 'financial', year: 2026, quarter: 'Q2', firstPublishedAt: q2Document.uploadedAt });
  await expect(manifestRows.getByRole('row').filter({ hasText: ann.email })).toContainText(correctsQ2);
  await confirm(page, 1);
  await expect(bulkSection(page).getByRole('list', { name: 'Successful' })).toContainText(`"${statement}" for ${ann.email}, Q2 2026, ${correctsQ2}`);
  expect((await statements()).map((d) => [d.quarter, d.version]).sort()).toEqual([
    ['Q1', 1],
    ['Q2', 2],
  ]);
});

test("a refused file a row names is listed once, under its row; an investors folder without its manifest says what is missing and where it is explained", async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const tag = runTag();
  const email = `${unique('rae-')}@example.com`;
  await createUserByApi(request, { email }, token);
  const folder = writeFolder('2026-Q3', {
    'investors/manifest.csv': manifestCsv([
      [email, 'k1.pdf', 'tax', `K-1 ${tag}`, ''],
      [email, 'empty.pdf', 'tax', `Empty ${tag}`, ''],
    ]),
    'investors/k1.pdf': pdfBytes(`k1 ${tag}`),
    'investors/empty.pdf': '',
    // Empty too, and named by no row.
    'investors/stray.pdf': '',
  });
  await openAdminTab(page, 'User Documents');
  const section = await preview(page, folder);
  await expect(section.getByRole('list', { name: 'Not sent' })).toHaveText(
    [`2026-Q3/investors/empty.pdf: ${publishingMessages.empty}`, `2026-Q3/investors/stray.pdf: ${publishingMessages.empty}`].join(''),
  );
  await expect(section.getByRole('list', { name: 'Unprocessed files' })).toHaveCount(0);
  await confirm(page, 1);
  await expect(section.getByRole('list', { name: 'Failed' })).toHaveText(`empty.pdf: Row 3: ${publishingMessages.empty} It was not sent.`);
  await expect(section.getByRole('list', { name: 'Not sent' })).toHaveText(`2026-Q3/investors/stray.pdf: ${publishingMessages.empty}`);
  await expect(section.getByRole('list', { name: 'Unprocessed' })).toHaveCount(0);
  await section.getByRole('button', { name: 'Close Results' }).click();

  // Personal documents with no manifest beside them.
  const bare = writeFolder('2026-Q3', { 'investors/k1.pdf': pdfBytes(`bare k1 ${tag}`) });
  await preview(page, bare);
  // Nothing would be filed: no period is promised.
  await expect(section.getByTestId('bulk-period')).toHaveCount(0);
  await expect(section.getByRole('list', { name: 'Not sent' })).toContainText(`investors/k1.pdf: ${folderPlanMessages.noManifest}`);
  const status = section.getByRole('status').filter({ hasText: 'Nothing would be published' });
  await expect(status).toContainText("personal documents need a manifest.csv in their investors folder, naming each file's investor, category and title.");
  await expect(status.getByRole('link', { name: 'How to write a manifest (opens in a new tab)' })).toHaveAttribute('href', '/instructions');
});

test('the single upload warns as soon as a deactivated account is chosen, before anything is sent', async ({ page, request }) => {
  const token = await adminToken(request);
  const email = `${unique('gone-')}@example.com`;
  const { user } = await createUserByApi(request, { email }, token);
  const deactivated = await request.post('/api/admin/edit-user', {
    headers: { Authorization: `Bearer ${token}` },
    data: { userId: user.id, isActive: false },
  });
  expect(deactivated.ok(), await deactivated.text()).toBe(true);
  await openAdminTab(page, 'User Documents');
  const form = page.getByRole('region', { name: 'Upload User Document' });
  await pickByEmail(page, form.getByRole('combobox', { name: /User/ }), email);
  await expect(form.getByTestId('deactivated-warning')).toContainText(`${email} is deactivated and cannot sign in`);
});
