import { expect, test } from '@playwright/test';
import { awayFromRateLimitWindowEnd, rateLimitWindowRoomMs } from '@everest/server/testing/rate-limit-window';
import { createUserByApi, unique } from './support/admin';
import { signIn } from './support/portal';

// Issue 33: ten wrong passwords for an account, from anywhere, make its next sign-in ask for a
// proof of work (429 `captchaRequired`). The owner, at another address, must still get in with the
// right password: the form solves the check silently and sends the sign-in again.
test('signs in with the right password after ten wrong ones from elsewhere, through the device check', async ({
  page,
  request,
}) => {
  // The guesses and the sign-in must fall in one of the server's fixed counting windows.
  test.setTimeout(test.info().timeout + rateLimitWindowRoomMs);
  await awayFromRateLimitWindowEnd();

  // An account of this test's own, so the lock-out touches no other spec's sign-ins.
  const email = `${unique('check')}@example.com`;
  const { password } = await createUserByApi(request, { email, role: 'user' });

  // The guesser's address is a made-up one of its own (the e2e server trusts the proxy header),
  // so that neither its per-address budget nor the pair's limit reaches the browser.
  const guesser = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
  for (let attempt = 0; attempt < 10; attempt++) {
    const response = await request.post('/api/investor/login', {
      headers: { 'X-Forwarded-For': guesser },
      data: { email, password: `wrong-${attempt}` },
    });
    expect(response.status()).toBe(401);
  }

  const asked = page.waitForResponse((r) => r.url().endsWith('/api/investor/login') && r.status() === 429);
  await signIn(page, email, password);
  expect(await (await asked).json()).toMatchObject({ captchaRequired: true });
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Checking this device' })).toHaveCount(0);
});
