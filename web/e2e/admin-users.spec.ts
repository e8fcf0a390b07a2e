import { expect, test, type Page } from '@playwright/test';
import { failureTitle, portalMessages, portalSuccess, roleLabels } from '@everest/core/domain';
import { propertyDocuments } from '@everest/fixtures';
import { signIn } from './support/portal';
import { adminToken, createUserByApi, investorPropertyNames, openAdminTab, pdfFile, toast, unique } from './support/admin';
import { axeOf } from './support/axe';

// The Users tab of the admin panel against the real server (issue 15): create, sign in as the
// new user, edit, property access, delete, and the panel's accessibility.

const usersTable = (page: Page) => page.getByRole('table', { name: 'Users' });

/**
 * Narrows the list by a user's e-mail and answers the row whose e-mail cell is exactly it: the
 * search also finds longer addresses that hold it ("admin@example.com" finds the
 * "second.admin@example.com" that portal-auth's test adds to the shared database).
 */
async function findRow(page: Page, email: string) {
  await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
  const row = usersTable(page).getByRole('row').filter({ has: page.getByRole('cell', { name: email, exact: true }) });
  await expect(row).toHaveCount(1);
  return row;
}

test('an administrator creates a user, sees the generated password, and the user signs in with it', async ({ page, browser, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = `${unique('new-')}@example.com`;
  await openAdminTab(page, 'Users');

  const form = page.getByRole('form', { name: 'Create User' });
  await form.getByRole('textbox', { name: 'Full name' }).fill('Quinn Harbor');
  await form.getByRole('textbox', { name: 'Email' }).fill(email);
  await expect(form.getByRole('combobox', { name: 'Role' })).toHaveValue('user');
  await form.getByRole('button', { name: 'Create User' }).click();

  const created = toast(page, portalSuccess.userCreated);
  await expect(created).toBeVisible();
  const text = (await created.locator('.fui-ToastBody').textContent()) ?? '';
  const password = /with the password (\S+)/.exec(text)?.[1];
  expect(password, text).toBeTruthy();
  await created.getByRole('button', { name: 'Copy password' }).click();
  await expect(created.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
  // The form is empty again, ready for the next user.
  await expect(form.getByRole('textbox', { name: 'Email' })).toHaveValue('');

  const other = await browser.newContext();
  try {
    const investor = await other.newPage();
    await signIn(investor, email, password);
    await expect(investor.getByRole('heading', { name: 'Welcome, Quinn Harbor' })).toBeVisible();
    await expect(investor.getByRole('button', { name: 'Admin Panel' })).toHaveCount(0);
  } finally {
    await other.close();
  }
});

test('a taken e-mail is refused with the spec\'s message and the server\'s sentence', async ({ page }) => {
  await openAdminTab(page, 'Users');
  const form = page.getByRole('form', { name: 'Create User' });
  await form.getByRole('textbox', { name: 'Entity / Organization' }).fill('Duplicate Holdings LLC');
  await form.getByRole('textbox', { name: 'Email' }).fill('investor@example.com');
  await form.getByRole('button', { name: 'Create User' }).click();
  // Issue 35: the server gave its reason (409), so the title keeps only the catalogue's first
  // sentence rather than guess at the cause beside the server's sentence.
  const failed = toast(page, failureTitle(portalMessages.userCreateFailed, 409, true));
  await expect(failed).toBeVisible();
  await expect(failed).toContainText('already used by another account');
  await expect(failed).not.toContainText('Please check if email already exists');
  await expect(failed).toHaveAttribute('data-variant', 'destructive');
});

test('an administrator edits a user and gives them a property, whose documents they then see', async ({ page, browser, request }) => {
  const email = `${unique('edit-')}@example.com`;
  const { password } = await createUserByApi(request, { email, name: 'Rowan Vale' });
  const assignable = new Set(await investorPropertyNames(request));
  const property = [...new Set(propertyDocuments.map((d) => d.property))].sort().find((p) => assignable.has(p));
  if (!property) throw new Error('the fixtures have documents of an investor-relations property');

  await openAdminTab(page, 'Users');
  let row = await findRow(page, email);
  await row.getByRole('button', { name: 'Edit Rowan Vale' }).click();
  const editor = page.getByRole('form', { name: 'Edit Rowan Vale' });
  await expect(editor.getByRole('textbox', { name: 'First name' })).toBeFocused();
  await editor.getByRole('textbox', { name: 'Last name' }).fill('Vale-Okafor');
  await editor.getByRole('textbox', { name: 'Entity / Organization' }).fill('Vale Family Trust');
  await editor.getByRole('textbox', { name: 'City' }).fill('Pasadena');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'User Updated')).toBeVisible();
  await expect(editor).toHaveCount(0);
  row = usersTable(page).getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Rowan Vale-Okafor');
  await expect(row).toContainText('Vale Family Trust');
  // Focus returns to the row's Edit button.
  await expect(row.getByRole('button', { name: 'Edit Rowan Vale-Okafor' })).toBeFocused();

  await row.getByRole('button', { name: 'Add property access for Rowan Vale-Okafor' }).click();
  const assign = page.getByRole('form', { name: 'Assign Property Access' });
  await expect(assign.getByRole('combobox', { name: 'Property' })).toBeFocused();
  await assign.getByRole('combobox', { name: 'Property' }).selectOption(property);
  await assign.getByRole('button', { name: 'Assign Property' }).click();
  await expect(toast(page, 'Property Assigned')).toBeVisible();
  await expect(row.getByRole('button', { name: `Remove ${property} from Rowan Vale-Okafor` })).toBeVisible();

  const other = await browser.newContext();
  try {
    const investor = await other.newPage();
    await signIn(investor, email, password);
    await expect(investor.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
    await expect(investor.getByRole('heading', { level: 3, name: property, exact: true })).toBeVisible();
  } finally {
    await other.close();
  }

  // Removing the chip takes the access away again, once confirmed.
  await row.getByRole('button', { name: `Remove ${property} from Rowan Vale-Okafor` }).click();
  await page.getByRole('alertdialog', { name: `Remove ${property} from Rowan Vale-Okafor?` }).getByRole('button', { name: 'Remove Access' }).click();
  await expect(toast(page, 'Property Removed')).toBeVisible();
  await expect(row.getByRole('button', { name: `Remove ${property} from Rowan Vale-Okafor` })).toHaveCount(0);
});

test('an administrator deletes a user through the confirmation dialog, which counts their personal documents', async ({ page, request }) => {
  const email = `${unique('gone-')}@example.com`;
  const token = await adminToken(request);
  const { password } = await createUserByApi(request, { email, name: 'Sage Delmore' }, token);
  for (const title of ['K-1 2025', '1099 2025']) {
    const uploaded = await request.post('/api/admin/upload-user-document', {
      headers: { Authorization: `Bearer ${token}` },
      multipart: { userEmail: email, documentCategory: 'tax', title, emailNotification: 'false', document: pdfFile('tax.pdf') },
    });
    expect(uploaded.ok(), await uploaded.text()).toBe(true);
  }
  await openAdminTab(page, 'Users');
  const row = await findRow(page, email);
  const remove = row.getByRole('button', { name: 'Delete Sage Delmore' });

  // Escape closes the dialog without deleting, and the focus returns to the button.
  await remove.click();
  let dialog = page.getByRole('alertdialog', { name: 'Delete Sage Delmore?' });
  await expect(dialog).toContainText(email);
  await expect(dialog).toContainText('2 personal documents');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();

  await remove.click();
  dialog = page.getByRole('alertdialog', { name: 'Delete Sage Delmore?' });
  await dialog.getByRole('button', { name: 'Delete User' }).click();
  await expect(toast(page, 'User Deleted')).toContainText('with 2 personal documents');
  await expect(usersTable(page)).toContainText(`No user matches "${email}".`);
  await expect(usersTable(page).getByRole('button', { name: 'Edit Sage Delmore' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeFocused();

  const login = await request.post('/api/investor/login', { data: { email, password } });
  expect(login.status()).toBe(401);
});

test('search starts on page 1 and lives in the address, so Back returns to the previous page and search', async ({ page, request }) => {
  const prefix = unique('pager-');
  const token = await adminToken(request);
  for (let i = 1; i <= 11; i++) await createUserByApi(request, { email: `${prefix}-${i}@example.com`, name: `Pat Pager${i}` }, token);
  await openAdminTab(page, 'Users');
  const search = page.getByRole('searchbox', { name: 'Search users' });
  const status = page.getByRole('navigation', { name: 'Users pages' });

  await search.fill(prefix);
  await expect(page).toHaveURL(new RegExp(`userSearch=${prefix}`));
  await expect(status).toContainText('Showing 1–10 of 11 · Page 1 of 2');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/userPage=2/);
  await expect(status).toContainText('Showing 11–11 of 11 · Page 2 of 2');

  // A new search goes back to page 1 (…-1, …-10 and …-11).
  await search.fill(`${prefix}-1`);
  await expect(status).toContainText('Showing 1–3 of 3 · Page 1 of 1');
  await expect(page).not.toHaveURL(/userPage/);

  await page.goBack();
  await expect(page).toHaveURL(/userPage=2/);
  await expect(search).toHaveValue(prefix);
  await expect(status).toContainText('Showing 11–11 of 11 · Page 2 of 2');
  await page.goBack();
  await expect(status).toContainText('Showing 1–10 of 11 · Page 1 of 2');
});

test("an administrator who makes themself an investor is told so, the panel closes, and they go on as an investor", async ({ page, request }) => {
  const email = `${unique('admin-')}@example.com`;
  const { password } = await createUserByApi(request, { email, name: 'Morgan Keel', role: 'administrator' });
  await openAdminTab(page, 'Users', email, password);
  const row = await findRow(page, email);
  // Their own row: no delete, and the e-mail is changed in Manage Profile.
  await expect(row.getByRole('button', { name: 'Delete Morgan Keel' })).toHaveCount(0);
  await row.getByRole('button', { name: 'Edit Morgan Keel' }).click();
  const editor = page.getByRole('form', { name: 'Edit Morgan Keel' });
  await expect(editor.getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly', '');
  await editor.getByRole('combobox', { name: 'Role' }).selectOption('user');
  await editor.getByRole('button', { name: 'Save' }).click();
  const announced = toast(page, portalMessages.roleChanged(roleLabels.user));
  await expect(announced).toBeVisible();
  await expect(page.getByRole('button', { name: 'Admin Panel' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveCount(0);
  // The administrator's sessions ended with the role; this one goes on as an investor's, with
  // an investor's list: only 'General', which every investor reads (the administrator's list of
  // every property, fetched before, is gone with the role). Still so after a reload.
  const documents = page.getByRole('group', { name: 'Your Documents' });
  await expect(documents.getByRole('heading', { level: 3 })).toHaveText(['General']);
  await page.reload();
  await expect(documents.getByRole('heading', { level: 3 })).toHaveText(['General']);
  await expect(page.getByRole('button', { name: 'Sign In' })).toHaveCount(0);
});

test("demoting the built-in administrator is refused with the server's reason and no 'Please try again'", async ({ page, request }) => {
  const email = `${unique('admin-')}@example.com`;
  const { password } = await createUserByApi(request, { email, name: 'Dana Reyes', role: 'administrator' });
  await openAdminTab(page, 'Users', email, password);
  const row = await findRow(page, 'admin@example.com');
  await row.getByRole('button', { name: /^Edit / }).click();
  const editor = page.getByRole('form', { name: /^Edit / });
  await editor.getByRole('combobox', { name: 'Role' }).selectOption('user');
  await editor.getByRole('button', { name: 'Save' }).click();
  // Issue 35: a retry cannot help here, so the catalogue's 'Please try again.' is left out.
  const failed = toast(page, failureTitle(portalMessages.userUpdateFailed, 409, true));
  await expect(failed).toBeVisible();
  await expect(failed).toContainText('The built-in administrator must stay an administrator.');
  await expect(failed).not.toContainText('Please try again');
  await expect(failed).toHaveAttribute('data-variant', 'destructive');
});

test('the users tab passes axe, with the editor and the delete dialog open', async ({ page, request }) => {
  // Three axe scans of the whole panel: past 30 s at a load average of 20 on the shared machine.
  test.setTimeout(90_000);
  const email = `${unique('axe-')}@example.com`;
  await createUserByApi(request, { email, name: 'Axel Reed' });
  await openAdminTab(page, 'Users');
  const row = await findRow(page, email);
  const check = async (include: string) => {
    const axe = await axeOf(page)
      .include(include)
      .options({ rules: { 'target-size': { enabled: true } } })
      .exclude('[data-tabster-dummy]')
      .analyze();
    expect(axe.violations).toEqual([]);
  };
  await check('#admin-panel-section');
  await row.getByRole('button', { name: 'Edit Axel Reed' }).click();
  await expect(page.getByRole('form', { name: 'Edit Axel Reed' })).toBeVisible();
  await check('#admin-panel-section');
  await page.keyboard.press('Escape');
  await row.getByRole('button', { name: 'Delete Axel Reed' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await check('[role="alertdialog"]');
});

// Issue 35: the people bookkeeping, at a desk and on a phone, with the keyboard.
for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the list shows Status and Last sign-in, filters by status and role in the address, and resends an invitation', async ({ page, request }) => {
      const prefix = unique('status-');
      const token = await adminToken(request);
      await createUserByApi(request, { email: `${prefix}-a@example.com`, name: 'Ines Invited', sendWelcomeEmail: true }, token);
      await createUserByApi(request, { email: `${prefix}-b@example.com`, name: 'Nico Never' }, token);
      const active = await createUserByApi(request, { email: `${prefix}-c@example.com`, name: 'Ada Active' }, token);
      expect((await request.post('/api/investor/login', { data: { email: active.user.email, password: active.password } })).ok()).toBe(true);

      await openAdminTab(page, 'Users');
      const list = page.getByRole('region', { name: 'Users', exact: true });
      const search = list.getByRole('searchbox', { name: 'Search users' });
      await search.fill(prefix);
      await expect(page).toHaveURL(new RegExp(`userSearch=${prefix}`));
      const rows = usersTable(page).getByRole('row');
      await expect(rows.filter({ hasText: prefix })).toHaveCount(3);
      const rowOf = (name: string) => rows.filter({ hasText: name });
      await expect(rowOf('Ines Invited')).toContainText('Invited');
      await expect(rowOf('Nico Never')).toContainText('Never signed in');
      await expect(rowOf('Ada Active')).toContainText('Active');
      // Last sign-in: a date for the one who signed in, blank for the others.
      const signedIn = /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}/;
      await expect(rowOf('Ada Active')).toContainText(signedIn);
      await expect(rowOf('Nico Never')).not.toContainText(signedIn);
      // Only an Invited user is offered the invitation again.
      await expect(rowOf('Nico Never').getByRole('button', { name: /Resend invitation/ })).toHaveCount(0);

      // The keyboard: from the search, Tab to Role, Tab to Status, and pick Invited with the arrow key.
      await search.focus();
      await page.keyboard.press('Tab');
      await expect(list.getByRole('combobox', { name: 'Role' })).toBeFocused();
      await page.keyboard.press('Tab');
      const statusFilter = list.getByRole('combobox', { name: 'Status' });
      await expect(statusFilter).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(statusFilter).toHaveValue('invited');
      await expect(page).toHaveURL(/userStatus=invited/);
      await expect(page).toHaveURL(new RegExp(`userSearch=${prefix}`));
      await expect(rows.filter({ hasText: prefix })).toHaveCount(1);
      await expect(rowOf('Ines Invited')).toBeVisible();

      const resend = rowOf('Ines Invited').getByRole('button', { name: 'Resend invitation to Ines Invited' });
      await resend.focus();
      await page.keyboard.press('Enter');
      await expect(toast(page, 'Invitation Sent')).toContainText(`A new invitation was sent to ${prefix}-a@example.com.`);

      // The address keeps the filters: after a reload the panel opens on the same list.
      await page.reload();
      await page.getByRole('button', { name: 'Admin Panel' }).click();
      await page.getByRole('tab', { name: 'Users', exact: true }).click();
      await expect(statusFilter).toHaveValue('invited');
      await expect(search).toHaveValue(prefix);
      await expect(rows.filter({ hasText: prefix })).toHaveCount(1);
      await list.getByRole('combobox', { name: 'Role' }).selectOption('everest_employee');
      await expect(page).toHaveURL(/userRole=everest_employee/);
      await expect(usersTable(page)).toContainText(`No user matches "${prefix}", Everest Employee, Invited.`);
    });

    test('removing a property-access chip asks to confirm; Escape keeps the access and the focus; once removed the focus is on + Add', async ({ page, request }) => {
      const [property, kept] = await investorPropertyNames(request);
      if (!property || !kept) throw new Error('the fixtures have two investor-relations properties');
      const email = `${unique('chip-')}@example.com`;
      await createUserByApi(request, { email, name: 'Cleo Chip', properties: [property, kept] });
      await openAdminTab(page, 'Users');
      const row = await findRow(page, email);
      const chip = row.getByRole('button', { name: `Remove ${property} from Cleo Chip` });

      await chip.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('alertdialog', { name: `Remove ${property} from Cleo Chip?` });
      await expect(dialog).toContainText(`Cleo Chip will no longer see the documents of ${property}`);
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(chip).toBeFocused();

      await page.keyboard.press('Enter');
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(dialog.getByRole('button', { name: 'Remove Access' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(toast(page, 'Property Removed')).toContainText(`Cleo Chip no longer has access to ${property}.`);
      await expect(chip).toHaveCount(0);
      // The row's '+ Add', not the chip that took the removed one's place, nor the page: the
      // focus used to be lost when the row was drawn again after the access list was fetched.
      const add = row.getByRole('button', { name: 'Add property access for Cleo Chip' });
      await expect(add).toBeFocused();
      await expect(row.getByRole('button', { name: `Remove ${kept} from Cleo Chip` })).toBeVisible();
      // The keyboard goes on from there: Enter chooses Cleo in the assignment form.
      await page.keyboard.press('Enter');
      const assign = page.getByRole('form', { name: 'Assign Property Access' });
      await expect(assign.getByRole('combobox', { name: 'Property' })).toBeFocused();
      await expect(assign.getByRole('combobox', { name: 'User' })).toHaveValue(/Cleo Chip/);
    });
  });
}

test('first and last name are kept as typed and reopen so', async ({ page, request }) => {
  const email = `${unique('names-')}@example.com`;
  await createUserByApi(request, { email, name: 'Olivia Brennan' });
  await openAdminTab(page, 'Users');
  const row = await findRow(page, email);
  await row.getByRole('button', { name: 'Edit Olivia Brennan' }).click();
  let editor = page.getByRole('form', { name: 'Edit Olivia Brennan' });
  await editor.getByRole('textbox', { name: 'First name' }).fill('Olivia Rose');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'User Updated')).toBeVisible();
  // Read back from the server, not from the edit's answer.
  await page.reload();
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  await page.getByRole('tab', { name: 'Users', exact: true }).click();
  const again = usersTable(page).getByRole('row').filter({ hasText: email });
  await again.getByRole('button', { name: 'Edit Olivia Rose Brennan' }).click();
  editor = page.getByRole('form', { name: 'Edit Olivia Rose Brennan' });
  await expect(editor.getByRole('textbox', { name: 'First name' })).toHaveValue('Olivia Rose');
  await expect(editor.getByRole('textbox', { name: 'Last name' })).toHaveValue('Brennan');
});

test("an administrator adds an investor's identifiers, finds the investor by one, and another investor is refused it at the field", async ({ page, request }) => {
  const owner = `${unique('identified-')}@example.com`;
  const other = `${unique('refused-')}@example.com`;
  await createUserByApi(request, { email: owner, name: 'Hollis Grant' });
  await createUserByApi(request, { email: other, name: 'Iris Grant' });
  // Unique per run: every run of a repeat shares one database (so no TIN's last four here, of
  // which there are only 10,000).
  const trust = `Grant Family Trust dtd 3/1/2001 ${unique('')}`;
  const holding = `Grant Holdings LP ${unique('')}`;

  await openAdminTab(page, 'Users');
  let row = await findRow(page, owner);
  await row.getByRole('button', { name: 'Edit Hollis Grant' }).click();
  let editor = page.getByRole('form', { name: 'Edit Hollis Grant' });
  await editor.getByRole('textbox', { name: 'Identifiers' }).fill(`${trust}\n${holding}`);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'User Updated')).toBeVisible();
  await expect(editor).toHaveCount(0);
  await expect(row).toContainText(`Identifiers: ${trust} · ${holding}`);

  // The search box finds the investor by the identifier, punctuation aside.
  await page.getByRole('searchbox', { name: 'Search users' }).fill(trust.replace('3/1/2001', '3 1 2001').toUpperCase());
  row = usersTable(page).getByRole('row').filter({ hasText: owner });
  await expect(row).toHaveCount(1);

  row = await findRow(page, other);
  await row.getByRole('button', { name: 'Edit Iris Grant' }).click();
  editor = page.getByRole('form', { name: 'Edit Iris Grant' });
  const field = editor.getByRole('textbox', { name: 'Identifiers' });
  await field.fill(trust.toLowerCase());
  await editor.getByRole('button', { name: 'Save' }).click();
  const sentence = `“${trust.toLowerCase()}” already identifies ${owner}`;
  await expect(editor.getByText(sentence)).toBeVisible();
  await expect(field).toBeFocused();
  await expect(toast(page, failureTitle(portalMessages.userUpdateFailed, 409, true))).toContainText(sentence);
  await expect(editor).toBeVisible();
});
