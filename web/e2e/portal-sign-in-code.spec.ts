import { expect, test } from '@playwright/test';
import { signInCodeMessages } from '@everest/core/domain';
import { createUserByApi, unique } from './support/admin';
import { waitForMails, withDatabase } from './support/mail';
import { signIn } from './support/portal';

// Past an account's guess ceiling (100 failed passwords in an hour), the password alone does not
// sign in: the form keeps the password, asks for the code e-mailed to the account, and signs in
// with both.
test('signs in past the guess ceiling with the password and the code e-mailed to the account', async ({ page, request }) => {
  const email = `${unique('ceiling')}@example.com`;
  const { password } = await createUserByApi(request, { email, role: 'user' });
  // The hour's failures as a script with solved challenges from many addresses leaves them.
  await withDatabase((db) =>
    db.query('insert into rate_limit_counters (key, window_start, count) values ($1, now(), 150)', [`login-failure:account-hour:${email}`]),
  );

  const asked = page.waitForResponse((r) => r.url().endsWith('/api/investor/login') && r.status() === 401);
  await signIn(page, email, password);
  expect(await (await asked).json()).toEqual({ error: signInCodeMessages.needed, emailCodeRequired: true });
  const codeField = page.getByRole('textbox', { name: signInCodeMessages.label });
  await expect(codeField).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: signInCodeMessages.needed })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveValue(password);

  const [mail] = await waitForMails(email, 1);
  const code = /sign-in code is (\d{6})/.exec(mail ?? '')?.[1] ?? '';
  expect(code).toMatch(/^\d{6}$/);
  await codeField.fill(code);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible({ timeout: 30_000 });
});
