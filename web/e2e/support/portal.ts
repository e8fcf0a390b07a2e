import type { Page } from '@playwright/test';
import { demoPassword } from '@everest/fixtures';

/** Signs in on /investor-services as a visitor would, with the demo password unless told. */
export async function signIn(page: Page, email: string, password = demoPassword): Promise<void> {
  await page.goto('/investor-services');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}
