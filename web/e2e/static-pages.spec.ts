import { expect, test, type Page } from '@playwright/test';
import { pageContent } from '@everest/fixtures/page-content';
import { team } from '@everest/fixtures/team';
import { transactions } from '@everest/fixtures/transactions';
import { waitForHydration } from './support/hydration';
import { axeOf } from './support/axe';

/** Serious and critical axe findings; Fluent's focus guards are invisible helpers, not content. */
async function seriousAxeViolations(page: Page) {
  const results = await axeOf(page)
    // WCAG 2.2's target size (2.5.8) is off by default in axe; Lighthouse checks it.
    .options({ rules: { 'target-size': { enabled: true } } }).exclude('[data-tabster-dummy]').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

async function expectFitsScreen(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

const main = (page: Page) => page.getByRole('main');

test.describe('/management-team', () => {
  test('shows the ten team members with photo, name, title and biography', async ({ page }) => {
    await page.goto('/management-team');
    await expect(page.getByRole('heading', { level: 1, name: 'Management Team' })).toBeVisible();
    const cards = main(page).getByRole('article');
    await expect(cards).toHaveCount(10);
    expect(team).toHaveLength(10);
    for (const [index, member] of team.entries()) {
      const card = cards.nth(index);
      await expect(card.getByRole('heading', { level: 2 })).toHaveText(member.name);
      await expect(card.getByText(member.title, { exact: true })).toBeVisible();
      await expect(card.getByText(member.bio)).toBeAttached();
      const photo = card.getByRole('img', { name: `Portrait of ${member.name}` });
      await expect(photo).toHaveAttribute('width', '400');
      await expect(photo).toHaveAttribute('height', '400');
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('hides a photo that fails to load and keeps the member', async ({ page }) => {
    const [first] = team;
    if (!first) throw new Error('no team');
    const file = first.image.split('/').pop()?.replace(/\.svg$/, '') ?? '';
    await page.route(new RegExp(`/assets/${file}-[^/]*\\.svg$`), (route) => route.abort());
    await page.goto('/management-team');
    const card = main(page).getByRole('article').first();
    await expect(card.getByRole('heading', { name: first.name })).toBeVisible();
    await expect(card.locator('img')).toHaveCount(0);
    await expect(main(page).locator('article img')).toHaveCount(9);
  });
});

test.describe('/significant-transactions', () => {
  test('shows the 94 tombstones numbered 94 down to 1 with the explanatory texts', async ({ page }) => {
    await page.goto('/significant-transactions');
    const content = pageContent.transactions;
    await expect(page.getByRole('heading', { level: 1, name: content.heading })).toBeVisible();
    for (const paragraph of content.intro) await expect(main(page).getByText(paragraph)).toBeVisible();
    await expect(main(page).getByText(content.footnote)).toBeAttached();

    const figures = main(page).locator('figure');
    await expect(figures).toHaveCount(94);
    const numbers = await figures.evaluateAll((all) => all.map((f) => Number(f.getAttribute('data-transaction'))));
    expect(numbers).toEqual(Array.from({ length: 94 }, (_, i) => 94 - i));

    const newest = transactions.find((t) => t.number === 94);
    await expect(figures.first().locator('figcaption')).toContainText('No. 94');
    await expect(figures.first().locator('figcaption')).toContainText(newest?.description ?? '');

    const images = main(page).locator('figure img');
    await expect(images).toHaveCount(94);
    for (let i = 0; i < 94; i++) {
      await expect(images.nth(i)).toHaveAttribute('width', '300');
      await expect(images.nth(i)).toHaveAttribute('height', '400');
      await expect(images.nth(i)).toHaveAttribute('loading', i < 4 ? 'eager' : 'lazy');
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('replaces a failed image by Transaction N and Document Unavailable', async ({ page }) => {
    await page.route(/\/assets\/094-[^/]*\.svg$/, (route) => route.abort());
    await page.goto('/significant-transactions');
    const first = main(page).locator('figure').first();
    await expect(first.getByText('Transaction 94', { exact: true })).toBeVisible();
    await expect(first.getByText('Document Unavailable', { exact: true })).toBeVisible();
    await expect(first.locator('img')).toHaveCount(0);
    await expect(main(page).locator('figure').nth(1).locator('img')).toHaveCount(1);
  });
});

test.describe('/competitive-advantage', () => {
  const content = pageContent.competitiveAdvantage;

  test('shows the entity badges, the category badges, six advantages and three figures', async ({ page }) => {
    await page.goto('/competitive-advantage');
    await expect(page.getByRole('heading', { level: 1, name: content.heading })).toBeVisible();

    const entities = main(page).getByRole('region', { name: content.entityHeading });
    for (const label of ['REIT', 'TIC', 'DST', 'LLC', 'LP']) {
      await expect(entities.getByText(label, { exact: true })).toBeVisible();
    }

    const categories = main(page).getByRole('region', { name: content.categoryHeading });
    for (const [label, filter] of [
      ['Multifamily', 'residential'],
      ['Self-Storage', 'self-storage'],
      ['Retail', 'retail'],
    ]) {
      await expect(categories.getByRole('link', { name: label })).toHaveAttribute('href', `/properties?filter=${filter}`);
    }

    const advantages = main(page).getByRole('region', { name: content.advantagesHeading });
    await expect(advantages.getByRole('heading', { level: 3 })).toHaveText([
      'Expertise',
      'Financial Strength',
      'Restructuring Experience',
      'Distribution',
      'Legal Expertise',
      'Lender Approval',
    ]);

    const figures = main(page).getByRole('region', { name: content.figuresHeading });
    for (const figure of content.figures) {
      await expect(figures.getByText(figure.value, { exact: true })).toBeVisible();
      await expect(figures.getByText(figure.description)).toBeVisible();
    }
    await expect(figures.getByText('$100M+', { exact: true })).toBeVisible();
    await expect(figures.getByText('$180M+', { exact: true })).toBeVisible();
    await expect(figures.getByText(/15 years/)).toBeVisible();
    await expect(figures.getByText(/2001 through 2016/)).toBeVisible();
    await expect(figures.getByText(/multiple national lenders/)).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('a category badge opens the list filtered by its type', async ({ page }) => {
    await page.goto('/competitive-advantage');
    await main(page).getByRole('link', { name: 'Multifamily' }).click();
    await expect(page).toHaveURL(/\/properties\?filter=residential$/);
    await expect(
      page.getByRole('navigation', { name: 'Filter properties by type' }).getByRole('link', { name: /^Residential/ }),
    ).toHaveAttribute('aria-current', 'page');
  });

  test('Get Started Today goes to / and scrolls to the contact section', async ({ page }) => {
    await page.goto('/competitive-advantage');
    const button = main(page).getByRole('link', { name: 'Get Started Today' });
    await expect(button).toHaveAttribute('href', '/#contact');
    // The app's navigation (to /, then the scroll); before hydration the link is the browser's jump.
    await waitForHydration(page, button);
    await button.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('#contact')).toBeInViewport();
  });
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  for (const path of ['/management-team', '/significant-transactions', '/competitive-advantage']) {
    test(`${path} fits the screen`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectFitsScreen(page, 375);
      expect(await seriousAxeViolations(page)).toEqual([]);
    });
  }
});
