import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createUserAnswer, adminPropertiesAnswer, loginAnswer, type CreateUserBody, type User } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { signIn } from './portal';

export const adminEmail = 'admin@example.com';

/** A name no other test (or repeat) uses: tests share one database and run in parallel. */
export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

/** A session token of the demo administrator, for setting up data through the API. */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/investor/login', { data: { email: adminEmail, password: demoPassword } });
  expect(response.ok()).toBe(true);
  return loginAnswer.parse(await response.json()).token;
}

/** Creates a user through the API (setup, not the behaviour under test); answers it and its password. */
export async function createUserByApi(
  request: APIRequestContext,
  body: Partial<CreateUserBody> & { email: string },
  token?: string,
): Promise<{ user: User; password: string }> {
  token ??= await adminToken(request);
  const password = body.password || `Pw-${Math.random().toString(36).slice(2, 8)}A1!`;
  const response = await request.post('/api/admin/create-user', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: 'Test Person', ...body, password },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return { user: createUserAnswer.parse(await response.json()).user, password };
}

/** The properties an administrator may assign (flagged for investor relations). */
export async function investorPropertyNames(request: APIRequestContext): Promise<string[]> {
  const token = await adminToken(request);
  const response = await request.get('/api/admin/investor-properties', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return adminPropertiesAnswer.parse(await response.json()).properties.map((p) => p.name);
}

/** Signs in as `email` and opens the admin panel on `tab`. */
export async function openAdminTab(
  page: Page,
  tab: 'Documents' | 'Users' | 'Properties' | 'User Documents' | 'Bulk Import' | 'Read Receipts',
  email = adminEmail,
  password = demoPassword,
) {
  await signIn(page, email, password);
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  await page.getByRole('tab', { name: tab, exact: true }).click();
  await expect(page.getByRole('tab', { name: tab, exact: true })).toHaveAttribute('aria-selected', 'true');
}

/**
 * Types an investor's e-mail into a searchable picker (a Fluent Combobox) and picks the one
 * option it leaves with the keyboard, as a keyboard user does. A click on that option the moment
 * the list opens was lost on a loaded machine (1 run in 10 under stress-ng, in the headless
 * shell): the list was still being placed below the box, and it stayed open with nothing picked.
 * The keys go to the box wherever the list is drawn. The option's name holds the e-mail.
 */
export async function pickByEmail(page: Page, picker: Locator, email: string) {
  await picker.fill(email);
  // The picker's list, not a native select's options elsewhere on the page.
  const list = page.getByRole('listbox');
  const option = list.getByRole('option', { name: new RegExp(email.replace(/[.+]/g, '\\$&')) });
  await expect(list.getByRole('option')).toHaveCount(1);
  await picker.press('ArrowDown');
  await expect(picker).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id')) ?? 'the option');
  await picker.press('Enter');
  await expect(list).toBeHidden();
}

/** The one toast on screen with this title. */
export const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

/** A small real PDF whose bytes differ per call: the server checks the content, and dedupes it. */
export function pdfFile(name: string): { name: string; mimeType: string; buffer: Buffer } {
  const marker = unique('pdf-');
  return {
    name,
    mimeType: 'application/pdf',
    buffer: Buffer.from(
      `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n% ${marker}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
    ),
  };
}
