import { expect, test, type Page } from '@playwright/test';
import { adminToken, createUserByApi, investorPropertyNames, openAdminTab, pdfFile, unique } from './support/admin';
import { adminPanel as panel, expectAccessible } from './support/axe';

// Issue 35: every tab of the admin panel, at a desk (1280 px) and on a phone (375 px), with
// representative data: no axe violation, and on the phone every table is a list of cards, so
// that nothing scrolls sideways and every row's buttons are on the screen.

/**
 * On a phone: the page does not scroll sideways, no table does either, and every button of
 * every table lies within the screen's width (before issue 35, Edit and Delete sat off-screen).
 */
async function expectCards(page: Page, width: number) {
  const problems = await page.evaluate((screen) => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > screen) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    for (const table of document.querySelectorAll<HTMLElement>('#admin-panel-section [role="region"][aria-label$=" list"]')) {
      if (table.scrollWidth > table.clientWidth + 1) found.push(`${table.getAttribute('aria-label')} scrolls sideways`);
      for (const button of table.querySelectorAll<HTMLElement>('tbody button')) {
        const box = button.getBoundingClientRect();
        if (box.width > 0 && (box.left < 0 || box.right > screen)) found.push(`${button.getAttribute('aria-label') ?? button.textContent} is off-screen`);
      }
    }
    return found;
  }, width);
  expect(problems).toEqual([]);
}

/** Opens `tab` and waits until its lists have loaded. */
async function showTab(page: Page, tab: string) {
  await page.getByRole('tab', { name: tab, exact: true }).click();
  await expect(page.getByRole('tab', { name: tab, exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator(panel).getByText(/^Loading/)).toHaveCount(0);
}

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('every admin tab passes axe, with its dialogs and views open; on a phone its tables are cards', async ({ page, request }) => {
      // Seven tabs and a dozen axe scans: about 40 s alone, past 2 minutes at a load average of
      // 20 on the shared machine.
      test.setTimeout(300_000);
      const token = await adminToken(request);
      const [property] = await investorPropertyNames(request);
      if (!property) throw new Error('the fixtures have an investor-relations property');
      const email = `${unique('a11y-')}@example.com`;
      const title = unique('K-1 2025 Ally ');
      // An Invited investor with access and a personal document: the longest Users row (Resend
      // Invitation), a User Documents row, a read receipt, and Activity entries.
      await createUserByApi(request, { email, name: 'Alma Ally', properties: [property], sendWelcomeEmail: true }, token);
      const uploaded = await request.post('/api/admin/upload-user-document', {
        headers: { Authorization: `Bearer ${token}` },
        multipart: { userEmail: email, documentCategory: 'tax', title, emailNotification: 'false', document: pdfFile('k1.pdf') },
      });
      expect(uploaded.ok(), await uploaded.text()).toBe(true);

      await openAdminTab(page, 'Documents');
      const phone = width < 720;
      const check = async () => {
        await expectAccessible(page);
        if (phone) await expectCards(page, width);
      };

      await showTab(page, 'Documents');
      await expect(page.getByRole('table', { name: 'Documents' }).getByRole('row').nth(1)).toBeVisible();
      await check();

      await showTab(page, 'Users');
      await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
      const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: email });
      await expect(row).toHaveCount(1);
      await expect(row.getByRole('button', { name: 'Resend invitation to Alma Ally' })).toBeVisible();
      await check();
      await row.getByRole('button', { name: 'Edit Alma Ally' }).click();
      await expect(page.getByRole('form', { name: 'Edit Alma Ally' })).toBeVisible();
      await check();
      await page.keyboard.press('Escape');
      await row.getByRole('button', { name: 'Delete Alma Ally' }).click();
      await expect(page.getByRole('alertdialog', { name: 'Delete Alma Ally?' })).toBeVisible();
      await expectAccessible(page, '[role="alertdialog"]');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('alertdialog')).toHaveCount(0);

      await showTab(page, 'Properties');
      await expect(page.getByRole('table', { name: 'Properties' }).getByRole('row').nth(1)).toBeVisible();
      await check();

      await showTab(page, 'User Documents');
      await page.getByRole('searchbox', { name: 'Search user documents' }).fill(email);
      await expect(page.getByRole('table', { name: 'User Documents' }).getByRole('row').filter({ hasText: title })).toHaveCount(1);
      await check();

      await showTab(page, 'Bulk Import');
      await check();
      await page.getByLabel('CSV file', { exact: false }).first().setInputFiles({
        name: 'people.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`email,firstName,lastName\n${unique('a11y-new-')}@example.com,Nell,New\nnot-an-email,Bad,Row\n`),
      });
      await page.getByRole('button', { name: 'Preview Import' }).click();
      await expect(page.getByRole('heading', { name: /Import Preview/ })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText(/Row 3/)).toBeVisible();
      // The preview shows a moment before the form is usable again: axe must not start while
      // Preview Import is still disabled and then read its fade back from grey (1.64:1, 8 Dec CI).
      await expect(page.getByRole('button', { name: 'Preview Import' })).toBeEnabled();
      await check();

      await showTab(page, 'Read Receipts');
      await page.getByRole('searchbox', { name: 'Search documents' }).fill(title);
      const receipt = page.getByRole('table', { name: 'Documents' }).getByRole('row').filter({ hasText: title });
      await expect(receipt).toHaveCount(1);
      await check();
      await receipt.getByRole('button', { name: `Details of ${title}` }).click();
      await expect(page.getByRole('table', { name: 'Investors' }).getByRole('row').filter({ hasText: email })).toHaveCount(1);
      await check();

      await showTab(page, 'Activity');
      await expect(page.getByRole('table', { name: 'Activity' }).getByRole('row').nth(1)).toBeVisible();
      await check();
      await page.getByRole('button', { name: /^Details of / }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expect(page.getByRole('dialog').getByText('Loading the entry...')).toHaveCount(0);
      await expectAccessible(page, '[role="dialog"]');
    });
  });
}

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('the tabs wrap onto the screen, and the arrow keys and Enter reach every one of them', async ({ page }) => {
    await openAdminTab(page, 'Documents');
    const tabs = page.getByRole('tablist', { name: 'Administration sections' }).getByRole('tab');
    await expect(tabs).toHaveCount(8);
    for (const tab of await tabs.all()) await expect(tab).toBeInViewport({ ratio: 1 });
    await tabs.first().focus();
    for (const name of ['Users', 'Properties', 'User Documents', 'Bulk Import', 'Read Receipts', 'Activity', 'System']) {
      await page.keyboard.press('ArrowRight');
      await expect(page.getByRole('tab', { name, exact: true })).toBeFocused();
    }
    await page.keyboard.press('Enter');
    await expect(page.getByRole('tab', { name: 'System', exact: true })).toHaveAttribute('aria-selected', 'true');
    // The heading shows whatever GET /api/admin/system answers (its route is written separately).
    await expect(page.getByRole('heading', { name: 'System', exact: true })).toBeVisible();
  });
});
