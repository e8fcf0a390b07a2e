import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signIn } from './support/portal';

// The System tab against the real server: the e2e server runs without BACKUP_KEY, so the tab
// says scheduled backups are off; a backup taken by the command beside the running server (as
// an operator would, --unencrypted for want of a key) then shows as the last one.

const run = promisify(execFile);

async function openSystem(page: Page) {
  await signIn(page, 'admin@example.com');
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  const tab = page.getByRole('tab', { name: 'System', exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'System', exact: true })).toBeVisible();
}

test('says scheduled backups are off, and shows a backup taken beside the running server once it is checked again', async ({ page }) => {
  test.slow();
  await openSystem(page);
  await expect(page.getByText(/Scheduled backups are off: set BACKUP_KEY/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'E-mail' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Disk' })).toBeVisible();

  const { stdout } = await run(process.execPath, ['../server/dist/cli.js', 'backup', '--unencrypted'], {
    env: { ...process.env, DATA_DIR: process.env.EVEREST_E2E_DATA_DIR, LOG_LEVEL: 'warn' },
  });
  const archivePath = stdout.trim().split('\n').at(-1) ?? '';
  const archive = archivePath.split('/').at(-1) ?? '';
  expect(archive).toMatch(/^everest-backup-.*\.tar$/);

  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(page.getByText(archive)).toBeVisible();
  await expect(page.getByText(/started by an operator/)).toBeVisible();
});

for (const width of [1280, 375]) {
  test(`at ${width} px the tab passes axe and nothing scrolls sideways`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await openSystem(page);
    await expect(page.getByRole('heading', { name: 'Database' })).toBeVisible();
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
