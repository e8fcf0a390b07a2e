import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { DesktopApi, FolderUploadStatus } from '../src/shared/api';
import { portalAddressMessages } from '../src/shared/settings';
import { installTestBridge } from './support/test-bridge';
import { totpCode } from '@everest/server/testing/totp';
import { K1Maker, type K1Partner } from '@everest/fixtures/k1';
import { splitPdf } from '@everest/web/pdf';

const admin = { email: 'admin@example.com', password: 'Everest@2025' };

// Folders the tests drop or watch, on disk, as a member of staff would have them. Made in the
// worker (Playwright also loads this file once to list the tests, where nothing would remove it).
let fixtureRoot: string;
test.beforeAll(() => {
  fixtureRoot = mkdtempSync(path.join(os.tmpdir(), 'everest-desktop-drop-'));
});
test.afterAll(() => rmSync(fixtureRoot, { recursive: true, force: true }));

/** A small real PDF (the server checks the first bytes), different each time. */
function pdf(): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n${'x'.repeat(200)}\n%%EOF\n`);
}

function write(folder: string, relative: string, content: Buffer | string): void {
  const file = path.join(folder, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const unique = () => randomBytes(4).toString('hex');

test.beforeEach(async ({ page, request }) => {
  // A fresh install of the app for each test: no session, no upload, no watched folder.
  await request.post('/__test/reset');
  await installTestBridge(page, fixtureRoot);
});

async function signIn(page: Page): Promise<void> {
  await page.goto('/index.html');
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Administration Panel' })).toBeVisible();
}

/** The app's folder upload as main holds it (null: none started). */
async function folderUpload(page: Page): Promise<FolderUploadStatus | null> {
  return page.evaluate(() => (window as unknown as { desktop: DesktopApi }).desktop.getFolderUpload());
}

/** Drags a folder onto the window with real DataTransfer items, as the file manager would. */
async function dropFolder(page: Page, name: string): Promise<void> {
  await page.getByTestId('drop-zone').evaluate((zone, folderName) => {
    const data = new DataTransfer();
    data.items.add(new File([], folderName));
    zone.dispatchEvent(new DragEvent('dragenter', { bubbles: true, cancelable: true, dataTransfer: data }));
    zone.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: data }));
    zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data }));
  }, name);
}

test('signs in to the configured server, shows the shared panel with its data, and signs out', async ({ page }) => {
  await page.goto('/index.html');
  await expect(page.getByLabel('Portal address')).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+$/);
  const address = await page.getByLabel('Portal address').inputValue();

  // Main's refusals reach the form as sentences. (A wrong password is tested against the server
  // in desktop-session.test.ts: here, ten repeats would reach the server's sign-in rate limit.)
  await page.getByLabel('Portal address').fill('ftp://portal.example.com');
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Enter the server address as http:// or https:// and a host name, for example https://portal.example.com.',
  );
  // Plain http only for a portal on this computer: a password must not cross a network in clear.
  await page.getByLabel('Portal address').fill('http://portal.example.com');
  // (A refusal empties the password field.)
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(portalAddressMessages.plainHttp);
  await page.getByLabel('Portal address').fill(address);

  // An investor is not let in: the app is for administrators.
  await page.getByLabel('E-mail').fill('investor@example.com');
  await page.getByLabel('Password').fill('Everest@2025');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('This app is for administrators: sign in with an administrator account.');

  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'admin@example.com on http://127.0.0.1' })).toBeVisible();

  // The panel reads the server through the forwarded /api, with a token the page never holds.
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page.getByRole('cell', { name: 'investor@example.com' })).toBeVisible();
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toMatch(/ey[A-Za-z0-9_-]{10,}\./);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  // Signed out in main too: the forwarded API now answers 401.
  expect((await page.request.get('/api/admin/users')).status()).toBe(401);
});

test('an administrator with an authenticator app signs in with a code after the password', async ({ page }) => {
  // Four argon2 sign-ins before the screen is reached: over 30 s when seven helpers share 2 cores.
  test.setTimeout(90_000);
  await page.goto('/index.html');
  const server = await page.getByLabel('Portal address').inputValue();
  // An administrator of the test's own, with TOTP turned on through the server's API.
  const email = `desktop-two-step-${unique()}@example.com`;
  const login = async (who: string) => (await (await page.request.post(`${server}/api/investor/login`, { data: { email: who, password: admin.password } })).json()) as { token: string };
  const demo = await login(admin.email);
  const created = await page.request.post(`${server}/api/admin/create-user`, {
    headers: { authorization: `Bearer ${demo.token}` },
    data: { name: 'Dee Desktop', email, role: 'administrator', password: admin.password },
  });
  expect(created.status(), await created.text()).toBe(200);
  const headers = { authorization: `Bearer ${(await login(email)).token}` };
  const { secret } = (await (await page.request.post(`${server}/api/investor/second-step/totp/start`, { headers, data: { currentPassword: admin.password } })).json()) as { secret: string };
  expect((await page.request.post(`${server}/api/investor/second-step/totp/confirm`, { headers, data: { code: totpCode(secret) } })).status()).toBe(200);

  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await expect(page.getByText('Passkeys cannot be used in the desktop app.', { exact: false })).toBeVisible();
  const code = page.getByRole('textbox', { name: 'Authentication code' });
  await expect(code).toBeFocused();
  await page.screenshot({ path: '/tmp/passkey-shots/desktop-second-step.png' });
  // The set-up spent this step's code; the app's clock a step ahead gives the next one.
  await page.keyboard.type(totpCode(secret, 1));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `${email} on http://127.0.0.1` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Administration Panel' })).toBeVisible();
});

test('a dropped quarter folder shows its plan, publishes with progress, and is already published when dropped again', async ({ page }) => {
  const run = unique();
  const drop = `quarters-${run}`;
  const base = path.join(fixtureRoot, drop);
  write(base, `2025-Q3/properties/General/Letter ${run}.pdf`, pdf());
  write(base, `2025-Q3/properties/Nowhere Plaza/Report ${run}.pdf`, pdf());
  write(base, `2025-Q3/investors/k1-${run}.pdf`, pdf());
  write(
    base,
    '2025-Q3/investors/manifest.csv',
    `email,filename,document_category,title\ninvestor@example.com,k1-${run}.pdf,tax,K-1 ${run}\nnobody-${run}@example.com,k1-${run}.pdf,tax,K-1 again ${run}\n`,
  );
  write(base, '2025-Q3/notes.txt', 'not a document');
  write(base, '.DS_Store', 'finder');

  await signIn(page);
  await page.getByRole('tab', { name: 'Folder Drop' }).click();
  await dropFolder(page, drop);

  await expect(page.getByRole('heading', { name: 'Publishing plan' })).toBeFocused();
  const counts = page.getByRole('list', { name: 'Plan counts' });
  await expect(counts).toContainText('Will be published: 2');
  await expect(counts).toContainText('Already published: 0');
  await expect(counts).toContainText('Ignored: 1');
  const properties = page.getByRole('table', { name: 'Property documents' });
  await expect(properties.getByRole('row', { name: new RegExp(`Letter ${run}.*General.*2025 Q3.*Will be published`) })).toBeVisible();
  const personal = page.getByRole('table', { name: 'Personal documents' });
  // Filed under its quarter folder's period, shown before anything is sent (issue 32).
  await expect(personal.getByRole('row', { name: new RegExp(`investor@example.com.*K-1 ${run}.*2025 Q3.*Will be published`) })).toBeVisible();
  await expect(page.getByText('2025-Q3/investors/manifest.csv read as UTF-8')).toBeVisible();
  await expect(personal.getByRole('row', { name: /^3 .*Not sent: User not found/ })).toBeVisible();
  const notSent = page.getByRole('table', { name: 'Files not sent' });
  await expect(notSent.getByRole('row', { name: /Nowhere Plaza.*There is no property named "Nowhere Plaza"/ })).toBeVisible();
  await expect(notSent.getByRole('row', { name: /notes\.txt/ })).toBeVisible();

  await page.getByRole('button', { name: 'Publish 2 documents' }).click();
  await expect(page.getByRole('heading', { name: 'Upload finished' })).toBeVisible();
  const files = page.getByRole('table', { name: 'Files' });
  await expect(files.getByRole('row', { name: new RegExp(`General/Letter ${run}\\.pdf.*Published`) })).toBeVisible();
  await expect(files.getByRole('row', { name: new RegExp(`k1-${run}\\.pdf.*Published`) })).toBeVisible();
  await expect(files.getByRole('row', { name: /Nowhere Plaza.*Needs attention/ })).toBeVisible();
  // The final summary names each state's count (issue 34), not "n of n files done".
  await expect(page.getByText(/^\d+ published, 0 already on the portal, [1-9]\d* need attention, 0 still being written, 1 skipped by rule$/)).toBeVisible();

  // On the portal exactly once.
  const documents = (await (await page.request.get('/api/admin/documents')).json()) as { documents: { title: string }[] };
  expect(documents.documents.filter((d) => d.title === `Letter ${run}`)).toHaveLength(1);

  // Closing the finished upload asks first; Escape keeps it.
  await page.getByRole('button', { name: 'Drop another folder' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Drop another folder' })).toBeFocused();
  await page.getByRole('button', { name: 'Drop another folder' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  await dropFolder(page, drop);
  await expect(page.getByRole('list', { name: 'Plan counts' })).toContainText('Already published: 2');
  await expect(page.getByRole('button', { name: 'Nothing new to publish' })).toBeDisabled();
});

test('an investors folder without manifest.csv is matched by content: staff review, exclude and confirm, and the rows they confirm are planned and published as a manifest drop', async ({ page }) => {
  // PDF.js loads in each worker before the review shows: seconds on a busy machine.
  test.setTimeout(120_000);
  const run = unique();
  await signIn(page);
  // Investors of this run only, so that nobody else's K-1 can match.
  const person = async (name: string) => {
    const email = `k1-${name.split(' ')[0]!.toLowerCase()}-${run}@example.com`;
    const response = await page.request.post('/api/admin/create-user', { data: { email, name: `${name} ${run}`, password: `Pw-${run}-A1!` } });
    expect(response.ok(), await response.text()).toBe(true);
    return { email, name: `${name} ${run}` };
  };
  const ann = await person('Ann Quill');
  const bob = await person('Bob Reyes');
  const partner = (name: string, seed: string): K1Partner => ({
    name: [name],
    address: ['1840 Oak Grove Ave.', 'Reno, NV 89501'],
    tin: `XXX-XX-${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`,
    type: 'Individual',
    seed,
  });
  const maker = new K1Maker();
  const annK1 = await maker.k1(partner(ann.name, `${run}-ann`));
  const scan = await maker.scan(partner(ann.name, `${run}-scan`));
  // The preparer's cover letter, then Bob's K-1 and the page after it that names nobody.
  const combined = await maker.combined([{ partner: partner(bob.name, `${run}-bob`), after: ['section-199a'] }]);
  const drop = `matched-${run}`;
  const base = path.join(fixtureRoot, drop);
  write(base, '2025-Q3/investors/K1_2025_00017.pdf', Buffer.from(annK1));
  write(base, '2025-Q3/investors/K1_2025_00018.pdf', Buffer.from(scan));
  write(base, '2025-Q3/investors/K1_2025_package.pdf', Buffer.from(combined));

  await page.getByRole('tab', { name: 'Folder Drop' }).click();
  await dropFolder(page, drop);
  await expect(page.getByRole('heading', { name: 'Publishing plan' })).toBeFocused();
  await expect(page.getByRole('list', { name: 'Plan counts' })).toContainText('Will be published: 0');
  await expect(page.getByText('3 files in 2025-Q3/investors have no manifest.csv')).toBeVisible();
  await page.getByRole('button', { name: 'Match by content' }).click();

  const review = page.getByRole('region', { name: 'Match by content: review' });
  await expect(review.getByRole('heading', { name: 'Match by content: review' })).toBeFocused({ timeout: 60_000 });
  const row = (text: string) => review.getByRole('row').filter({ hasText: text });
  await expect(row('K1_2025_00017.pdf')).toContainText(`Matched${ann.name} (${ann.email})`);
  await expect(row('Pages 2–3')).toContainText(`Matched${bob.name} (${bob.email})`);
  await expect(row('Page 1')).toContainText('Needs a person');
  await expect(review.getByRole('button', { name: 'Continue to Preview' })).toBeDisabled();
  await review.getByRole('checkbox', { name: 'Exclude K1_2025_00018.pdf' }).check();
  await review.getByRole('checkbox', { name: 'Exclude K1_2025_package.pdf (page 1)' }).check();
  await review.getByRole('button', { name: 'Continue to Preview' }).click();

  // The confirmed rows are a manifest drop's plan: the same preview, the same Publish.
  await expect(page.getByRole('heading', { name: 'Publishing plan' })).toBeFocused();
  await expect(page.getByText(`${path.join(fixtureRoot, drop)}, matched by content`)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Plan counts' })).toContainText('Will be published: 2');
  const personal = page.getByRole('table', { name: 'Personal documents' });
  await expect(personal.getByRole('row', { name: new RegExp(`${ann.email}.*2025 Schedule K-1.*2025 Q3.*Will be published`) })).toBeVisible();
  await expect(personal.getByRole('row', { name: new RegExp(`${bob.email}.*2025 Schedule K-1.*2025 Q3.*Will be published`) })).toBeVisible();
  await page.getByRole('button', { name: 'Publish 2 documents' }).click();
  await expect(page.getByRole('heading', { name: 'Upload finished' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/^2 published, 0 already on the portal, 0 need attention/)).toBeVisible();

  // Each investor has exactly their own K-1: Ann's file, Bob's pages of the combined PDF, byte for byte.
  const [bobSection] = await splitPdf(combined, [[2, 3]]);
  for (const { investor, bytes } of [
    { investor: ann, bytes: annK1 },
    { investor: bob, bytes: bobSection! },
  ]) {
    const listed = (await (await page.request.get(`/api/admin/user-documents?search=${encodeURIComponent(investor.email)}`)).json()) as {
      documents: { id: number; title: string; userEmail: string; year: number; quarter: string; fileSize: number }[];
    };
    const theirs = listed.documents.filter((d) => d.userEmail === investor.email);
    expect(theirs.map((d) => [d.title, d.year, d.quarter]), investor.email).toEqual([['2025 Schedule K-1', 2025, 'Q3']]);
    expect(theirs[0]!.fileSize, investor.email).toBe(bytes.byteLength);
  }
  // Nothing was written into the dropped folder.
  expect(readdirSync(path.join(base, '2025-Q3/investors')).sort()).toEqual(['K1_2025_00017.pdf', 'K1_2025_00018.pdf', 'K1_2025_package.pdf']);
});

test('a combined PDF of K-1s dropped on its own is matched by content under the quarter staff choose, and each section published to its investor', async ({ page }) => {
  test.setTimeout(120_000);
  const run = unique();
  await signIn(page);
  const email = `k1-cy-${run}@example.com`;
  const name = `Cy Vance ${run}`;
  const created = await page.request.post('/api/admin/create-user', { data: { email, name, password: `Pw-${run}-A1!` } });
  expect(created.ok(), await created.text()).toBe(true);
  const combined = await new K1Maker().combined([
    { partner: { name: [name], address: ['9 Elm St.', 'Reno, NV 89501'], tin: 'XXX-XX-0000', type: 'Individual', seed: `${run}-cy` }, after: ['state'] },
  ]);
  const file = `K1_package_${run}.pdf`;
  write(fixtureRoot, file, Buffer.from(combined));

  await page.getByRole('tab', { name: 'Folder Drop' }).click();
  await dropFolder(page, file);
  await expect(page.getByRole('heading', { name: 'Publishing plan' })).toBeFocused();
  await expect(page.getByText(`${file} has no manifest.csv`)).toBeVisible();
  // No quarter folder holds it: nothing is read before staff say where it is filed.
  const match = page.getByRole('button', { name: 'Match by content' });
  await expect(match).toBeDisabled();
  await page.getByRole('combobox', { name: 'Year' }).selectOption('2025');
  await page.getByRole('combobox', { name: 'Quarter' }).selectOption('Q2');
  await match.click();

  const review = page.getByRole('region', { name: 'Match by content: review' });
  await expect(review.getByRole('heading', { name: 'Match by content: review' })).toBeFocused({ timeout: 60_000 });
  await expect(review.getByRole('row').filter({ hasText: 'Pages 2–3' })).toContainText(`Matched${name} (${email})`);
  await review.getByRole('checkbox', { name: `Exclude ${file} (page 1)` }).check();
  await review.getByRole('button', { name: 'Continue to Preview' }).click();

  await expect(page.getByRole('heading', { name: 'Publishing plan' })).toBeFocused();
  await expect(page.getByRole('table', { name: 'Personal documents' }).getByRole('row', { name: new RegExp(`${email}.*2025 Q2.*Will be published`) })).toBeVisible();
  await page.getByRole('button', { name: 'Publish 1 document' }).click();
  await expect(page.getByRole('heading', { name: 'Upload finished' })).toBeVisible({ timeout: 30_000 });
  const [section] = await splitPdf(combined, [[2, 3]]);
  const listed = (await (await page.request.get(`/api/admin/user-documents?search=${encodeURIComponent(email)}`)).json()) as {
    documents: { userEmail: string; year: number; quarter: string; fileSize: number }[];
  };
  expect(listed.documents.filter((d) => d.userEmail === email).map((d) => [d.year, d.quarter, d.fileSize])).toEqual([[2025, 'Q2', section!.byteLength]]);
});

test('with "E-mail the investors" ticked, Publish says how many people first; Cancel sends nothing, confirming publishes', async ({ page }) => {
  const run = unique();
  const drop = `emailed-${run}`;
  const base = path.join(fixtureRoot, drop);
  write(base, `2025-Q3/properties/General/Notice ${run}.pdf`, pdf());
  write(base, `2025-Q3/investors/k1-${run}.pdf`, pdf());
  write(base, '2025-Q3/investors/manifest.csv', `email,filename,document_category,title\ninvestor@example.com,k1-${run}.pdf,tax,K-1 ${run}\n`);

  await signIn(page);
  // What the server says a General document reaches, asked as the screen asks it.
  const general = (await (await page.request.get('/api/admin/document-recipients?property=General')).json()) as { recipients: number };
  expect(general.recipients).toBeGreaterThan(0);
  const people = general.recipients + 1;
  const published = async () => {
    const documents = (await (await page.request.get('/api/admin/documents')).json()) as { documents: { title: string }[] };
    return documents.documents.filter((d) => d.title === `Notice ${run}`).length;
  };

  await page.getByRole('tab', { name: 'Folder Drop' }).click();
  await dropFolder(page, drop);
  await expect(page.getByRole('list', { name: 'Plan counts' })).toContainText('Will be published: 2');
  await page.getByRole('checkbox', { name: 'E-mail the investors about what is published' }).check();
  const publish = page.getByRole('button', { name: 'Publish 2 documents' });
  await publish.click();

  const dialog = page.getByRole('alertdialog', { name: `This will e-mail up to ${people} people` });
  await expect(dialog).toBeVisible();
  const groups = dialog.getByRole('list', { name: 'Who is e-mailed' });
  await expect(groups.getByRole('listitem')).toHaveText([`General: its readers, ${general.recipients}`, "Investors' documents: their investors, 1"]);
  // Cancel first, so that Enter never sends by accident.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();

  // Escape cancels and the focus is back on Publish; nothing was sent.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(publish).toBeFocused();
  // Cancel does the same.
  await publish.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(publish).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Publishing plan' })).toBeVisible();
  expect(await folderUpload(page)).toBeNull();
  expect(await published()).toBe(0);

  // Confirmed, it publishes, with e-mail.
  await publish.click();
  await dialog.getByRole('button', { name: 'Publish and Send E-mails' }).click();
  await expect(page.getByRole('heading', { name: 'Upload finished' })).toBeVisible();
  const files = page.getByRole('table', { name: 'Files' });
  await expect(files.getByRole('row', { name: new RegExp(`General/Notice ${run}\\.pdf.*Published`) })).toBeVisible();
  await expect(files.getByRole('row', { name: new RegExp(`k1-${run}\\.pdf.*Published`) })).toBeVisible();
  expect(await published()).toBe(1);
  expect((await folderUpload(page))?.emailNotification).toBe(true);
});

test('without "E-mail the investors", Publish sends at once with no dialog', async ({ page }) => {
  const run = unique();
  const drop = `quiet-${run}`;
  write(path.join(fixtureRoot, drop), `2025-Q3/properties/General/Quiet ${run}.pdf`, pdf());

  await signIn(page);
  await page.getByRole('tab', { name: 'Folder Drop' }).click();
  await dropFolder(page, drop);
  await expect(page.getByRole('checkbox', { name: 'E-mail the investors about what is published' })).not.toBeChecked();
  await page.getByRole('button', { name: 'Publish 1 document' }).click();
  await expect(page.getByRole('heading', { name: 'Upload finished' })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  expect((await folderUpload(page))?.emailNotification).toBe(false);
});

test('an upload is paused, survives a reload of the window, and resumes to the end with each file once', async ({ page }) => {
  const run = unique();
  const drop = `paused-${run}`;
  const quarter = path.join(fixtureRoot, drop, '2025-Q1');
  for (let n = 1; n <= 6; n += 1) write(quarter, `properties/General/Paused ${run} ${n}.pdf`, pdf());

  await signIn(page);
  await page.getByRole('tab', { name: 'Folder Drop' }).click();
  await dropFolder(page, drop);
  await page.getByRole('button', { name: 'Publish 6 documents' }).click();
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('heading', { name: 'Upload paused' })).toBeVisible();

  // The window is reloaded: the paused upload is still there (a restart of the app is
  // folder-upload.test.ts's).
  await page.reload();
  await page.getByRole('tab', { name: 'Folder Drop' }).click();
  await expect(page.getByRole('heading', { name: 'Upload paused' })).toBeVisible();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('heading', { name: 'Upload finished' })).toBeVisible();
  await expect(page.getByText('6 published, 0 already on the portal, 0 need attention, 0 still being written, 0 skipped by rule')).toBeVisible();

  const documents = (await (await page.request.get('/api/admin/documents')).json()) as { documents: { title: string }[] };
  expect(documents.documents.filter((d) => d.title.startsWith(`Paused ${run} `)).map((d) => d.title).sort()).toEqual(
    [1, 2, 3, 4, 5, 6].map((n) => `Paused ${run} ${n}`),
  );
});

test('a CSV is chosen with the keyboard and previewed on the machine against the server users, with its error rows and counts', async ({ page }) => {
  const run = unique();
  // Listened for from the start: Playwright turns on the interception of file dialogs when the
  // first listener comes, and a key pressed right after could overtake it (2 runs in 6 in the
  // headless shell), opening a dialog that nothing sees.
  const chooser = page.waitForEvent('filechooser');
  await signIn(page);
  await page.getByRole('tab', { name: 'CSV Preview' }).click();
  const csv = [
    'email,firstName,lastName,entity,role,propertyAccess,streetAddress,city,state,zipCode',
    `new-${run}@example.com,Nina,New,,user,,1 Main St,Austin,TX,78701`,
    'investor@example.com,Jim,Carter,,,,,,,',
    'not-an-email,Bad,Row,,user,,,,,',
    // Issue 35: a bad value that is markup and hides a NUL shows as text, with the NUL replaced.
    `<b>bold</b>\u0000-${run},Mark,Up,,user,,,,,`,
  ].join('\n');

  // The panel's own button, reached with Tab from the section's tab, opens the system's file dialog.
  await expect(page.getByText('No file chosen')).toBeVisible();
  await page.keyboard.press('Tab');
  const choose = page.getByRole('button', { name: 'Choose a CSV file…' });
  await expect(choose).toBeFocused();
  await expect(choose).toHaveAttribute('data-fui-focus-visible', '');
  await expect(choose).toHaveAccessibleDescription('No file chosen');
  await page.keyboard.press('Enter');
  const name = `bulk user import for the third quarter, checked by the office ${run}.csv`;
  await (await chooser).setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });

  await expect(page.getByRole('heading', { name: `Preview of ${name}` })).toBeFocused();
  // The chosen file's name beside the button, whole on hover and for screen readers.
  await expect(choose).toHaveAccessibleDescription(name);
  await expect(page.locator('#csv-chosen-file')).toHaveAttribute('title', name);
  const counts = page.getByRole('list', { name: 'Preview counts' });
  await expect(counts).toContainText('Rows read: 4');
  await expect(counts).toContainText('New users: 1');
  await expect(counts).toContainText('Existing users with changes: 1');
  await expect(counts).toContainText('Errors: 2');
  await expect(page.getByRole('list', { name: 'New users' })).toContainText(`new-${run}@example.com`);
  await expect(page.getByRole('list', { name: 'Existing users with changes' })).toContainText('investor@example.com; firstName: James → Jim');
  // Each error names its row and shows the bad value, as the web's import preview does.
  const errors = page.getByRole('list', { name: 'Errors (will be skipped)' }).getByRole('listitem');
  await expect(errors.nth(0)).toHaveText(/^Row 4: .+ Value: “not-an-email”$/);
  await expect(errors.nth(1)).toHaveText(new RegExp(`^Row 5: .+ Value: “<b>bold</b>\uFFFD-${run}”$`));
  await expect(errors.nth(1).locator('b')).toHaveCount(0);

  // Nothing was sent: the new user does not exist on the server.
  const users = (await (await page.request.get(`/api/admin/users?search=new-${run}`)).json()) as { totalCount: number };
  expect(users.totalCount).toBe(0);
});

test('the watched folder is chosen, started, and shows each file and what needs attention', async ({ page, request }) => {
  const run = unique();
  const watched = path.join(fixtureRoot, `watched-${run}`);
  mkdirSync(watched);
  await request.post('/__test/next-folder', { data: { folder: watched } });

  await signIn(page);
  await page.getByRole('tab', { name: 'Watched Folder' }).click();
  await page.getByRole('button', { name: 'Choose a folder…' }).click();
  await expect(page.getByText(`watched-${run}`)).toBeVisible();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Watching' })).toBeVisible();

  write(watched, `2025-Q2/properties/General/Memo ${run}.pdf`, pdf());
  write(watched, `2025-Q2/photos/site-${run}.jpg`, 'jpeg');

  const files = page.getByRole('table', { name: 'Watched files' });
  await expect(files.getByRole('row', { name: new RegExp(`Memo ${run}\\.pdf.*Published`) })).toBeVisible();
  await expect(page.getByRole('list', { name: /Needs attention/ })).toContainText(
    `2025-Q2/photos/site-${run}.jpg: Unknown folder "photos" in a quarter folder`,
  );
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Stopped' })).toBeVisible();
});

test('the keyboard shows where it is', async ({ page }) => {
  await page.goto('/index.html');
  await page.getByLabel('Password').focus();
  await page.keyboard.press('Tab');
  const signInButton = page.getByRole('button', { name: 'Sign in' });
  await expect(signInButton).toBeFocused();
  // Fluent draws its focus ring for keyboard focus only, marked by this attribute.
  await expect(signInButton).toHaveAttribute('data-fui-focus-visible', '');
});

test('a 20-file plan fills the window: one line per file, long paths cut in the middle, whole on hover and on focus', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const run = unique();
  const drop = `many-${run}`;
  const base = path.join(fixtureRoot, drop);
  for (let n = 1; n <= 19; n += 1) write(base, `2025-Q4/properties/General/Notice ${run} ${String(n).padStart(2, '0')}.pdf`, pdf());
  const longName = `Quarterly distribution notice to the limited partners, revised after the auditor's review of the fund ${run}.pdf`;
  const longPath = `2025-Q4/properties/General/${longName}`;
  write(base, longPath, pdf());

  await signIn(page);
  await page.getByRole('tab', { name: 'Folder Drop' }).click();
  await dropFolder(page, drop);
  await expect(page.getByRole('list', { name: 'Plan counts' })).toContainText('Will be published: 20');
  const table = page.getByRole('table', { name: 'Property documents' });
  await expect(table.getByRole('row')).toHaveCount(21);

  // Each path on one line, and most of the plan in view at once (it was two rows in a scroll slot,
  // a path wrapping one character per line). Only the long title wraps, at its words.
  const rows = await table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => {
      const box = tr.getBoundingClientRect();
      const path = tr.querySelector('[title]')!.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom, height: box.height, pathHeight: path.height };
    }),
  );
  expect(Math.max(...rows.map((r) => r.pathHeight))).toBeLessThan(30);
  expect(rows.filter((r) => r.height < 48)).toHaveLength(19);
  expect(rows.filter((r) => r.top >= 0 && r.bottom <= 800).length).toBeGreaterThanOrEqual(10);

  // The long path: its first folder and its file name's end in view (the quarter, and what tells
  // one file from another), the folders between and the middle of the name cut.
  const cell = table.getByRole('cell', { name: longPath, exact: true });
  await expect(cell).toBeVisible();
  const pathText = cell.locator('[title]');
  await expect(pathText).toHaveAttribute('title', longPath);
  const clipped = () =>
    pathText.evaluate((element) =>
      Array.from(element.querySelector('[aria-hidden]')!.children, (part) => ({ text: part.textContent, cut: part.scrollWidth > part.clientWidth + 1 })),
    );
  const fileName = `/${longName}`;
  expect(await clipped()).toEqual([
    { text: '2025-Q4/', cut: false },
    { text: 'properties/General', cut: true },
    { text: fileName.slice(0, -14), cut: true },
    { text: fileName.slice(-14), cut: false },
  ]);
  const lineHeight = (await pathText.boundingBox())!.height;

  // The keyboard: Tab enters the table once, the arrow keys go from path to path, and the focused
  // path shows whole, wrapped in place.
  await table.locator('[title]').first().focus();
  for (let n = 1; n < 20; n += 1) await page.keyboard.press('ArrowDown');
  await expect(pathText).toBeFocused();
  await expect.poll(async () => (await pathText.boundingBox())!.height).toBeGreaterThan(lineHeight * 1.5);
  expect(await pathText.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await page.keyboard.press('Tab');
  await expect(pathText).not.toBeFocused();
  await expect(table.locator(':focus')).toHaveCount(0);
});

test('starts with no console error: the CSP comes as a header, and zod runs without eval', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));

  const answer = await page.goto('/index.html');
  expect(answer?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(answer?.headers()['content-security-policy']).not.toContain('unsafe-eval');
  expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').count()).toBe(0);
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The panel parses the server's answers with the contract's zod schemas.
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page.getByRole('cell', { name: 'investor@example.com' })).toBeVisible();
  for (const [screen, heading] of [
    ['Folder Drop', 'Folder Drop'],
    ['CSV Preview', 'CSV Preview'],
    ['Watched Folder', 'Watched Folder'],
  ] as const) {
    await page.getByRole('tab', { name: screen }).click();
    await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
  }
  expect(problems).toEqual([]);
});
