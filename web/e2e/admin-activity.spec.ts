import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminToken, createUserByApi, unique } from './support/admin';
import { signIn } from './support/portal';

// The Activity tab (issue 35) against the real server: an administrator's edit of a user is
// found by person and action, opened with the keyboard to see the entity before and after, and
// the filtered view is exported as CSV. The edited user is this test's own; the demo
// administrator acts in other specs at the same time, so rows are found by that user's e-mail.

async function editedUser(request: APIRequestContext): Promise<{ email: string; entity: string }> {
  const token = await adminToken(request);
  const email = `${unique('activity.')}@example.com`;
  const { user } = await createUserByApi(request, { email, name: 'Ada Activity' }, token);
  const entity = unique('Activity Trust ');
  const edited = await request.post('/api/admin/edit-user', { headers: { Authorization: `Bearer ${token}` }, data: { userId: user.id, entity } });
  expect(edited.ok(), await edited.text()).toBe(true);
  return { email, entity };
}

async function openActivity(page: Page) {
  await signIn(page, 'admin@example.com');
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  const tab = page.getByRole('tab', { name: 'Activity', exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** Filters by the demo administrator and 'Edited a user', the action with the keyboard alone. */
async function filterToAdminEdits(page: Page) {
  const person = page.getByRole('combobox', { name: 'Person' });
  // "(admin@example.com)" whole: portal-auth's test adds a second.admin@example.com.
  const value = await person.locator('option', { hasText: /(^|\()admin@example\.com\)?$/ }).getAttribute('value');
  await person.selectOption(value ?? '');
  await expect(page).toHaveURL(new RegExp(`activityPerson=${value}`));
  await person.focus();
  await page.keyboard.press('Tab');
  const action = page.getByRole('combobox', { name: 'Action' });
  await expect(action).toBeFocused();
  await page.keyboard.type('Edited a u');
  await expect(action).toHaveValue('edit-user');
  await expect(page).toHaveURL(/activityAction=edit-user/);
}

async function checkDetailsWithKeyboard(page: Page, opener: ReturnType<Page['getByRole']>, entity: string) {
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Edited a user' });
  await expect(dialog).toBeVisible();
  const field = dialog.getByRole('listitem').filter({ hasText: 'entity' });
  await expect(field).toContainText('Before');
  await expect(field).toContainText('(empty)');
  await expect(field).toContainText(`After${entity}`);
  await expect(dialog).toContainText('Avery Whitfield (admin@example.com)');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

async function exportCsv(page: Page, email: string, entity: string) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('activity.csv');
  const lines = readFileSync((await file.path()) ?? '', 'utf8').replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
  expect(lines[0]).toBe('Time (Pacific),Time (UTC),Person,Person e-mail,Action,Action code,Subject type,Subject,Subject id,From address,Fields,Before,After');
  const rows = lines.slice(1);
  // Only the view: the administrator's edits of users, ours among them with its values.
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row).toContain(',admin@example.com,Edited a user,edit-user,user,');
  const ours = rows.filter((row) => row.includes(`,${email},`));
  expect(ours).toHaveLength(1);
  expect(ours[0]).toContain(`"{""entity"":""""}","{""entity"":""${entity}""}"`);
}

test('an administrator finds an edit in Activity by person and action, opens it and exports the view (1280 px)', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { email, entity } = await editedUser(request);
  await openActivity(page);
  await filterToAdminEdits(page);

  const table = page.getByRole('table', { name: 'Activity' });
  const row = table.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Avery Whitfield');
  await expect(row).toContainText('Edited a user');
  await expect(row).toContainText('entity');
  for (const other of await table.getByRole('row').filter({ hasNot: page.getByRole('columnheader') }).all()) {
    await expect(other).toContainText('Edited a user');
  }
  await checkDetailsWithKeyboard(page, row.getByRole('button', { name: /^Details of Edited a user/ }), entity);

  // The filters are in the address: a reload shows the same view.
  await page.reload();
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  await page.getByRole('tab', { name: 'Activity', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Action' })).toHaveValue('edit-user');
  await expect(page.getByRole('table', { name: 'Activity' }).getByRole('row').filter({ hasText: email })).toHaveCount(1);

  await exportCsv(page, email, entity);
});

test('on a phone each entry is a card with its Details button in view (375 px)', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { email, entity } = await editedUser(request);
  await openActivity(page);
  await filterToAdminEdits(page);

  // The same table as at a desk, each row drawn as a card (the panel's one mechanism): the
  // action heads it and the column names label its lines.
  const card = page.getByRole('table', { name: 'Activity' }).getByRole('row').filter({ hasText: email });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Edited a user');
  // Each line's label is the cell's generated content, drawn from its data-label.
  const when = card.locator('td[data-label="When"]');
  await expect(when).toBeVisible();
  expect(await when.evaluate((cell) => getComputedStyle(cell, '::before').content)).toContain('When');
  const details = card.getByRole('button', { name: /^Details of Edited a user/ });
  await details.scrollIntoViewIfNeeded();
  await expect(details).toBeInViewport({ ratio: 1 });
  // Nothing runs past the screen's edge.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await checkDetailsWithKeyboard(page, details, entity);
  await exportCsv(page, email, entity);
});
