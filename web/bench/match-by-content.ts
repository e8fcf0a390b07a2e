/**
 * `pnpm --filter @everest/web bench` (or `bench:match` alone): Match by content in Chromium, as
 * an administrator uses it: 2,000 one-page K-1 PDFs chosen in the bulk upload, read in the
 * page's Web Workers and matched by core's rule, timed from Preview Upload to the review on
 * screen (goal < 60 s); then one combined PDF of 2,000 pages (goal < 60 s). The product server is
 * the real one with its demo data; the investors the K-1s name are 2,000 made-up ones, given to
 * the page as the server's answer of who the investors are, so that every row matches. Nothing
 * here is a test: a missed goal is printed, not failed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import type { ContentMatchingInvestorsAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { benchPartner, K1Maker } from '@everest/fixtures/k1';
import { startProductServer } from './product-server';

const count = 2000;
const goalSeconds = 60;

const investors: ContentMatchingInvestorsAnswer['investors'] = Array.from({ length: count }, (_, i) => {
  const partner = benchPartner(i + 1);
  const isEntity = partner.type === 'LLC';
  return {
    id: 100_000 + i,
    email: `bench.${i + 1}@example.com`,
    name: isEntity ? '' : partner.name[0]!,
    entity: isEntity ? partner.name[0]! : '',
    identifiers: [],
    active: true,
  };
});

async function main() {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'everest-k1-bench-'));
  const singles = path.join(folder, 'investors');
  mkdirSync(singles);
  const maker = new K1Maker({ compress: false });
  const made = performance.now();
  for (let i = 0; i < count; i += 1) writeFileSync(path.join(singles, `K1_2025_${String(i + 1).padStart(5, '0')}.pdf`), await maker.k1(benchPartner(i + 1)));
  const combinedPath = path.join(folder, 'K1_2025_combined.pdf');
  writeFileSync(combinedPath, await maker.pdf(Array.from({ length: count }, (_, i) => ({ kind: 'k1' as const, partner: benchPartner(i + 1) }))));
  console.log(`Made ${count} one-page K-1s and a ${count}-page combined PDF in ${((performance.now() - made) / 1000).toFixed(1)} s.`);

  const server = await startProductServer({ command: ['--filter', '@everest/server', 'start'] });
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.route('**/api/admin/content-matching/investors', (route) => route.fulfill({ json: { investors } }));
    await page.goto(`${server.url}/investor-services`);
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('admin@example.com');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(demoPassword);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Admin Panel' }).click();
    await page.getByRole('tab', { name: 'User Documents', exact: true }).click();
    const section = page.getByRole('region', { name: 'Bulk Upload User Documents' });
    await section.getByRole('checkbox', { name: /Match by content/ }).check();

    const timeReview = async (label: string, choose: () => Promise<void>) => {
      await choose();
      const load = os.loadavg()[0]!.toFixed(1);
      const started = performance.now();
      await section.getByRole('button', { name: 'Preview Upload' }).click();
      const rows = page.getByRole('region', { name: 'Match by content: review' }).getByRole('list', { name: 'Rows' });
      await rows.waitFor({ timeout: 10 * 60_000 });
      const seconds = (performance.now() - started) / 1000;
      const counts = (await rows.innerText()).replace(/\s+/g, ' ');
      console.log(
        `${label.padEnd(44)} ${seconds.toFixed(1).padStart(6)} s   goal < ${goalSeconds} s: ${seconds < goalSeconds ? 'met' : 'MISSED'}   (${counts}; load ${load}, ${os.availableParallelism()} CPUs)`,
      );
      await page.getByRole('region', { name: 'Match by content: review' }).getByRole('button', { name: 'Cancel' }).click();
    };
    await timeReview(`Chromium: ${count} one-page K-1s read and matched`, () => section.getByLabel('Or a whole folder').setInputFiles(singles));
    await timeReview(`Chromium: a ${count}-page combined K-1 PDF`, () => section.getByLabel('Documents', { exact: true }).setInputFiles(combinedPath));
  } finally {
    await browser.close();
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
