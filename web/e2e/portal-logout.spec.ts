import { expect, test } from '@playwright/test';
import { investorDocumentsAnswer } from '@everest/core/contract';
import { signIn } from './support/portal';

// Logout ends the session on the server: a download address copied while signed in (history,
// a shared computer, a proxy log) stops opening the investor's tax papers.
test('after Logout, the old download address answers 401', async ({ page }) => {
  await signIn(page, 'investor@example.com');
  await expect(page.getByRole('heading', { name: 'Your Documents' })).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('everest.investorToken'));
  expect(token).toBeTruthy();

  const list = await page.request.get('/api/investor/documents', { headers: { authorization: `Bearer ${token}` } });
  const own = investorDocumentsAnswer.parse(await list.json()).documents.find((d) => d.documentType === 'personal');
  const address = `/api/investor/download/${own?.id}?type=user&token=${token}`;
  expect((await page.request.get(address)).status()).toBe(200);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect.poll(async () => (await page.request.get(address)).status()).toBe(401);
  expect((await page.request.get('/api/investor/profile', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
});
