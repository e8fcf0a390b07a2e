import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const adminPanel = '#admin-panel-section';

/**
 * Axe for a page, run in the page itself (axe.run, `setLegacyMode`). The builder's default runs
 * axe in each frame and then again in a new blank page to merge the frames' results: a page
 * opened per scan, 0.3–0.5 s each, for cross-origin frames, which none of our pages has (the one
 * frame we show, the document preview's, is same-origin). The admin axe pass: 46.6 →
 * 35.1 own CPU-seconds, the same 24 scans passing.
 */
export const axeOf = (page: Page) => new AxeBuilder({ page }).setLegacyMode();

/** No axe violation inside `include` (the panel, or an open dialog), target sizes included. */
export async function expectAccessible(page: Page, include = adminPanel) {
  // Axe reads colours as they are drawn: a button just enabled (Preview Import once its preview is
  // in) fades from its disabled grey in Fluent's 100 ms transition, and under load axe caught it
  // at the start (1.64:1). What the user then sees is the end of every transition; a spinner's
  // endless animation has none and is not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const axe = await axeOf(page)
    .include(include)
    .options({ rules: { 'target-size': { enabled: true } } })
    .exclude('[data-tabster-dummy]')
    .analyze();
  expect(axe.violations).toEqual([]);
}
