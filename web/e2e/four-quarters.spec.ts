import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { investorDocumentsAnswer, loginAnswer } from '@everest/core/contract';
import { bulkManifestMessages, quarters, type Quarter } from '@everest/core/domain';
import { adminToken, createUserByApi, openAdminTab, unique } from './support/admin';
import { queuedMailSubjects } from './support/mail';
import { createProperty, manifestCsv, pdfBytes, runTag, writeFolder } from './support/publishing';

// A year published as staff publish it, in the browser: four quarter folders in a row with the
// same titles every quarter, one file changed and published again in each quarter, a deactivated
// investor in every manifest and a property no investor can see. Then, as each investor, every
// document they see: its quarter, its bytes, its version count, and the e-mails they were sent.
// The whole year chosen again changes nothing.

const bulkSection = (page: Page) => page.getByRole('region', { name: 'Bulk Upload User Documents' });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Investor {
  email: string;
  password: string;
}

/** Each of the investor's documents of this run: 'kind title quarter vN sha256'. */
async function documentsSeen(request: APIRequestContext, investor: Investor, tag: string): Promise<string[]> {
  const login = await request.post('/api/investor/login', { data: { email: investor.email, password: investor.password } });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = { Authorization: `Bearer ${loginAnswer.parse(await login.json()).token}` };
  const answer = await request.get('/api/investor/documents', { headers });
  const documents = investorDocumentsAnswer.parse(await answer.json()).documents.filter((d) => d.title.includes(tag));
  const seen: string[] = [];
  for (const d of documents) {
    const file = await request.get(`/api/investor/download/${d.id}?type=${d.documentType === 'personal' ? 'user' : 'property'}`, { headers });
    expect(file.ok(), `${d.title}: ${file.status()}`).toBe(true);
    const where = d.documentType === 'property' ? d.property : 'personal';
    seen.push(`${where}: ${d.title} ${d.quarter} v${d.version} ${sha256(await file.body())}`);
  }
  return seen.sort();
}

/** Chooses the folder, previews it with e-mail on, confirms what it promises, and answers the results' summary. */
async function publish(page: Page, folder: string, expected: { documents: number; unread?: string }): Promise<string> {
  const section = bulkSection(page);
  await section.getByLabel('Or a whole folder').setInputFiles(folder);
  await section.getByRole('checkbox', { name: /Send an email notification/ }).check();
  await section.getByRole('button', { name: 'Preview Upload' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Preview' })).toBeFocused();
  const counts = section.getByRole('list', { name: 'Rows per outcome' });
  await expect(counts).toContainText('Account deactivated: 1');
  // A property nobody can read is said so before anything is sent.
  if (expected.unread) {
    const row = section.getByRole('table', { name: 'Property documents' }).getByRole('row').filter({ hasText: expected.unread });
    await expect(row).toContainText('No investor can see this document.');
  }
  if (expected.documents === 0) {
    await expect(section.getByRole('button', { name: /Confirm & Upload/ })).toBeDisabled();
    const summary = (await section.getByRole('status').filter({ hasText: 'would be published' }).textContent()) ?? '';
    await section.getByRole('button', { name: 'Cancel' }).click();
    return summary;
  }
  await section.getByRole('button', { name: `Confirm & Upload ${expected.documents} ${expected.documents === 1 ? 'Document' : 'Documents'}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Publish and Send E-mails' }).click();
  await expect(section.getByRole('heading', { name: 'Upload Results' })).toBeFocused();
  const summary = (await section.getByTestId('bulk-results-summary').textContent()) ?? '';
  await section.getByRole('button', { name: 'Close Results' }).click();
  return summary;
}

test('four quarters in a row with the same titles: each investor sees each quarter once, whole, with its corrections, and publishing the year again changes nothing', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  const token = await adminToken(request);
  const tag = runTag();
  const north = `North ${tag}`;
  const south = `South ${tag}`;
  const hidden = `Hidden ${tag}`;
  await createProperty(request, token, north);
  await createProperty(request, token, south);
  await createProperty(request, token, hidden, { investorRelations: false });
  const investor = async (name: string, properties: string[]): Promise<Investor> => {
    const email = `${unique(`${name}-`)}@example.com`;
    return { email, password: (await createUserByApi(request, { email, properties }, token)).password };
  };
  const ann = await investor('ann', [north]);
  const bob = await investor('bob', [north, south]);
  const cat = await investor('cat', [south]);
  const { user } = await createUserByApi(request, { email: `${unique('gone-')}@example.com` }, token);
  const deactivated = await request.post('/api/admin/edit-user', { headers: { Authorization: `Bearer ${token}` }, data: { userId: user.id, isActive: false } });
  expect(deactivated.ok()).toBe(true);
  const mailsBefore = new Map(await Promise.all([ann, bob, cat].map(async (i) => [i.email, (await queuedMailSubjects(i.email)).length] as const)));

  const report = `Quarterly Report ${tag}`;
  const statement = `Quarterly Distribution Statement ${tag}`;
  // What each file holds now, by quarter and name: what each investor must then download.
  const bytes = new Map<string, Buffer>();
  const folders = new Map<Quarter, string>();
  for (const quarter of quarters) {
    const files: Record<string, Buffer | string> = {};
    for (const property of [north, south, hidden]) files[`properties/${property}/${report}.pdf`] = pdfBytes(`${property} report ${quarter}`);
    for (const who of ['ann', 'bob', 'cat', 'gone']) files[`investors/${who}.pdf`] = pdfBytes(`${who} statement ${quarter} ${tag}`);
    files['investors/manifest.csv'] = manifestCsv(
      [...[ann, bob, cat].map((i, n) => [i.email, `${['ann', 'bob', 'cat'][n]}.pdf`]), [user.email, 'gone.pdf']].map(([email, file]) => [email!, file!, 'financial', statement, '']),
    );
    const folder = writeFolder(`2026-${quarter}`, files);
    folders.set(quarter, folder);
    for (const [path, content] of Object.entries(files)) bytes.set(`${quarter}/${path}`, Buffer.from(content));
  }
  // The one file changed in each quarter, after that quarter was first published.
  const changed: Record<Quarter, string> = {
    Q1: 'investors/ann.pdf',
    Q2: `properties/${north}/${report}.pdf`,
    Q3: 'investors/cat.pdf',
    Q4: `properties/${south}/${report}.pdf`,
  };

  await openAdminTab(page, 'User Documents');
  for (const quarter of quarters) {
    const folder = folders.get(quarter)!;
    // Three reports (the hidden property's too) and three statements; the deactivated investor's row is refused.
    expect(await publish(page, folder, { documents: 6, unread: hidden })).toContain('6 documents published (3 property, 3 personal).');
    const path = changed[quarter];
    const fixed = pdfBytes(`${path} restated ${quarter} ${tag}`);
    writeFileSync(join(folder, path), fixed);
    bytes.set(`${quarter}/${path}`, fixed);
    expect(await publish(page, folder, { documents: 1 })).toContain('1 document published.');
  }

  const expected = (who: Investor, name: string, properties: string[]) =>
    quarters
      .flatMap((quarter) => [
        `personal: ${statement} ${quarter} v${changed[quarter] === `investors/${name}.pdf` ? 2 : 1} ${sha256(bytes.get(`${quarter}/investors/${name}.pdf`)!)}`,
        ...properties.map((property) => {
          const path = `properties/${property}/${report}.pdf`;
          return `${property}: ${report} ${quarter} v${changed[quarter] === path ? 2 : 1} ${sha256(bytes.get(`${quarter}/${path}`)!)}`;
        }),
      ])
      .sort();
  const year = async () => ({
    ann: await documentsSeen(request, ann, tag),
    bob: await documentsSeen(request, bob, tag),
    cat: await documentsSeen(request, cat, tag),
  });
  const seen = await year();
  expect(seen.ann).toEqual(expected(ann, 'ann', [north]));
  expect(seen.bob).toEqual(expected(bob, 'bob', [north, south]));
  expect(seen.cat).toEqual(expected(cat, 'cat', [south]));

  // E-mails: one digest per quarter, and one per correction of something they can read.
  const mails = async () => Object.fromEntries(await Promise.all([ann, bob, cat].map(async (i) => [i.email, (await queuedMailSubjects(i.email)).length - mailsBefore.get(i.email)!] as const)));
  const sent = await mails();
  expect(sent).toEqual({ [ann.email]: 4 + 2, [bob.email]: 4 + 2, [cat.email]: 4 + 2 });
  for (const i of [ann, bob, cat]) {
    const subjects = (await queuedMailSubjects(i.email)).slice(mailsBefore.get(i.email));
    expect(subjects.filter((s) => s === 'A corrected document is available in your investor portal')).toHaveLength(2);
  }

  // The year again, as it is: nothing new anywhere, no e-mail.
  for (const quarter of quarters) {
    expect(await publish(page, folders.get(quarter)!, { documents: 0 })).toContain('Nothing new would be published');
  }
  expect(await year()).toEqual(seen);
  expect(await mails()).toEqual(sent);
  expect(bulkManifestMessages.deactivated(user.email)).toContain('is deactivated');
});
