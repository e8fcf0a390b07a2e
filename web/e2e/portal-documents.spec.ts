import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { demoUsers, fixtureFile, personalDocuments, propertyDocuments } from '@everest/fixtures';
import { signIn } from './support/portal';
import { axeOf } from './support/axe';

// 'Your Documents' as each demo investor sees it, against the real server and the seeded
// fixtures: exactly their documents, in the spec's order, with a preview and a download.

/** Signs in and waits for 'Your Documents'. */
async function openDocuments(page: Page, email: string) {
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
}

function expectedFor(email: string) {
  const access = new Set(demoUsers.find((u) => u.email === email)?.propertyAccess);
  const property = propertyDocuments.filter((d) => d.property === 'General' || access.has(d.property));
  const personal = personalDocuments.filter((d) => d.userEmail === email);
  return { property, personal };
}

const documentsCard = (page: Page) => page.getByRole('heading', { name: 'Your Documents' }).locator('xpath=ancestor::*[contains(@class,"fui-Card")][1]');

for (const email of ['investor@example.com', 'investor2@example.com']) {
  test(`${email} sees exactly their documents, grouped by property in alphabetical order`, async ({ page }) => {
    const expected = expectedFor(email);
    await openDocuments(page, email);
    const card = documentsCard(page);
    await expect(card.getByRole('tab', { name: `Property Documents (${expected.property.length})` })).toBeVisible();
    await expect(card.getByRole('tab', { name: `Personal Documents (${expected.personal.length})` })).toBeVisible();

    const groups = [...new Set(expected.property.map((d) => d.property))].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
    await expect(card.getByRole('heading', { level: 3 })).toHaveText(groups);

    // Years newest first inside a property; every year is a toggle, collapsed unless current.
    const firstGroup = card.locator('section').filter({ has: page.getByRole('heading', { level: 3, name: groups[0] }) }).first();
    const years = [...new Set(expected.property.filter((d) => d.property === groups[0]).map((d) => d.year))].sort((a, b) => b - a);
    await expect(firstGroup.getByRole('button', { expanded: false }).or(firstGroup.getByRole('button', { expanded: true }))).toHaveText(
      years.map((y) => new RegExp(`^\\D*${y} \\(`)),
    );

    await card.getByRole('tab', { name: /Personal Documents/ }).click();
    for (const doc of expected.personal) {
      const yearToggle = card.getByRole('button', { name: new RegExp(`^\\D*${doc.year} \\(`) });
      if ((await yearToggle.getAttribute('aria-expanded')) === 'false') await yearToggle.click();
      await expect(card.getByText(doc.title, { exact: true })).toBeVisible();
    }
  });
}

test('each year list opens on one year: the current one, or the newest when nothing is from the current year', async ({ page }) => {
  const email = 'investor@example.com';
  const { property, personal } = expectedFor(email);
  const thisYear = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', year: 'numeric' }).format(new Date()));
  const openYearOf = (years: number[]) => (years.includes(thisYear) ? thisYear : Math.max(...years));
  const expanded = (toggles: { year: number }[]) => toggles.map(({ year }) => ({ year, open: year === openYearOf(toggles.map((t) => t.year)) }));
  const shown = async (scope: ReturnType<Page['locator']>) =>
    scope.getByRole('button', { expanded: true }).or(scope.getByRole('button', { expanded: false })).evaluateAll((buttons) =>
      buttons.map((b) => ({ year: Number(/(\d{4}) \(/.exec(b.textContent ?? '')?.[1]), open: b.getAttribute('aria-expanded') === 'true' })),
    );

  await openDocuments(page, email);
  const card = documentsCard(page);
  await expect(card.getByRole('heading', { level: 3 }).first()).toBeVisible();
  for (const group of [...new Set(property.map((d) => d.property))]) {
    const section = card.locator('section').filter({ has: page.getByRole('heading', { level: 3, name: group, exact: true }) }).first();
    const years = [...new Set(property.filter((d) => d.property === group).map((d) => d.year))].sort((a, b) => b - a);
    expect(await shown(section), group).toEqual(expanded(years.map((year) => ({ year }))));
  }

  await card.getByRole('tab', { name: /Personal Documents/ }).click();
  const personalYears = [...new Set(personal.map((d) => d.year))].sort((a, b) => b - a);
  await expect(card.getByRole('heading', { level: 3 }).first()).toBeVisible();
  expect(await shown(card.getByRole('tabpanel'))).toEqual(expanded(personalYears.map((year) => ({ year }))));
  // The fixtures hold no personal document of this year, so the rule's second half is what shows.
  expect(personalYears).not.toContain(thisYear);
});

/** Signs in as investor@example.com and opens the year of its newest personal document. */
async function showNewestPersonalDocument(page: Page) {
  const email = 'investor@example.com';
  await openDocuments(page, email);
  const card = documentsCard(page);
  await card.getByRole('tab', { name: /Personal Documents/ }).click();
  const [doc] = expectedFor(email).personal.sort((a, b) => b.year - a.year);
  if (!doc) throw new Error('the fixtures give investor@example.com personal documents');
  const yearToggle = card.getByRole('button', { name: new RegExp(`^\\D*${doc.year} \\(`) });
  if ((await yearToggle.getAttribute('aria-expanded')) === 'false') await yearToggle.click();
  const session = await page.evaluate(() => localStorage.getItem('everest.investorToken'));
  expect(session).toBeTruthy();
  return { card, doc, session: session ?? '' };
}

test('the preview opens the file in a full-screen frame, from an address without the session token', async ({ page }) => {
  const { card, doc, session } = await showNewestPersonalDocument(page);
  await card.getByRole('button', { name: new RegExp(doc.title) }).first().click();
  const dialog = page.getByRole('dialog', { name: doc.title });
  await expect(dialog).toBeVisible();
  const src = await dialog.locator('iframe').getAttribute('src');
  expect(src).toContain('preview=1');
  // The address carries a document link of a few minutes, never the session token (issue 22).
  expect(src).not.toContain(session);
  const preview = await page.request.get(src ?? '');
  expect(preview.status()).toBe(200);
  expect(preview.headers()['content-disposition']).toMatch(/^inline;/);
  const axe = await axeOf(page).include('[role="dialog"]').exclude('iframe').exclude('[data-tabster-dummy]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('Download saves the same bytes as the fixture, from an address without the session token', async ({ page }) => {
  const { card, doc, session } = await showNewestPersonalDocument(page);
  // Download opens a new window on the file's address (headless Chromium does not report a
  // download started in a window opened with noopener): record the address, then fetch it as
  // that window would. No window is handed back, as in the desktop app, so the address itself
  // goes to window.open once its document link has come.
  await page.evaluate(() => {
    const opened: string[] = [];
    Object.assign(window, { openedUrls: opened });
    window.open = (url?: string | URL) => {
      opened.push(String(url));
      return null;
    };
  });
  await card.getByRole('button', { name: `Download ${doc.title}` }).first().click();
  const lastOpened = () => page.evaluate(() => (window as unknown as { openedUrls: string[] }).openedUrls.at(-1) ?? '');
  await expect.poll(lastOpened).toContain('/api/investor/download/');
  const url = await lastOpened();
  expect(url).not.toContain(session);
  const download = await page.request.get(url);
  expect(download.headers()['content-disposition']).toMatch(/^attachment;/);
  expect(Buffer.from(await download.body()).equals(readFileSync(fixtureFile(doc.file)))).toBe(true);
});

test('an investor without documents sees the empty states', async ({ page }) => {
  await openDocuments(page, 'priya.natarajan@example.com');
  const card = documentsCard(page);
  // 'General' documents belong to everyone signed in, so only the personal tab can be empty.
  await card.getByRole('tab', { name: 'Personal Documents (0)' }).click();
  await expect(card.getByText('No personal documents available.')).toBeVisible();
});

test('while the documents load, the tabs show no count rather than (0)', async ({ page }) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/investor/documents', async (route) => {
    await released;
    await route.continue();
  });
  await openDocuments(page, 'investor@example.com');
  const card = documentsCard(page);
  await expect(card.getByText('Loading documents...')).toBeVisible();
  const tabs = card.getByRole('tab');
  await expect(tabs.nth(0)).toHaveAccessibleName('Property Documents');
  await expect(tabs.nth(1)).toHaveAccessibleName('Personal Documents');

  release();
  const expected = expectedFor('investor@example.com');
  await expect(tabs.nth(0)).toHaveAccessibleName(`Property Documents (${expected.property.length})`);
  await expect(tabs.nth(1)).toHaveAccessibleName(`Personal Documents (${expected.personal.length})`);
});

test('the preview works by keyboard alone: focus on its buttons, Escape closes, focus returns to the row', async ({ page }) => {
  await openDocuments(page, 'investor@example.com');
  const card = documentsCard(page);
  // The tabs show (with 0 counts) while 'Loading documents...' does: wait for the first year.
  await expect(card.getByRole('button', { name: /^\d{4} \(\d+\)$/ }).first()).toBeVisible();

  // Start on the selected tab, then Tab on: open a collapsed year with Enter on the way; stop
  // on the first document's preview control (the row's button that is not its Download button).
  await card.getByRole('tab', { selected: true }).focus();
  let reached = false;
  for (let presses = 0; presses < 20 && !reached; presses++) {
    await page.keyboard.press('Tab');
    const state = await page.evaluate(() => {
      const el = document.activeElement;
      return {
        collapsedYear: el?.getAttribute('aria-expanded') === 'false',
        preview: !!el?.closest('li') && el.tagName === 'BUTTON' && !el.getAttribute('aria-label')?.startsWith('Download'),
      };
    });
    if (state.collapsedYear) {
      await page.keyboard.press('Enter');
      await expect(card.locator(':focus')).toHaveAttribute('aria-expanded', 'true');
    }
    reached = state.preview;
  }
  expect(reached).toBe(true);
  // Mark the control, to find it again after the dialog.
  await page.evaluate(() => document.activeElement?.setAttribute('data-e2e-opened-preview', ''));
  const control = page.locator('[data-e2e-opened-preview]');

  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const dialogButton = dialog.getByRole('button', { name: /^(Download|Close)$/ });
  await expect(dialogButton.and(page.locator(':focus'))).toHaveCount(1);

  const seen = new Set([await page.evaluate(() => document.activeElement?.textContent)]);
  for (let presses = 0; presses < 2 && seen.size < 2; presses++) {
    await page.keyboard.press('Tab');
    seen.add(await page.evaluate(() => document.activeElement?.textContent));
  }
  expect([...seen].sort()).toEqual(['Close', 'Download']);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(control).toBeFocused();
});
