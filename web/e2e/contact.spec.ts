import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { publicMessages } from '@everest/core/domain';

// The contact form on the home page, against the real server with its default captcha (ALTCHA:
// the browser solves a proof of work in Web Workers under the page's Content-Security-Policy).

// The proof of work takes a few seconds on a busy two-core CI machine.
test.describe.configure({ timeout: 60_000 });

// Each test is a visitor of its own (the e2e server trusts X-Forwarded-For): the server's limit of
// messages per address would otherwise refuse the sends of later tests and repeats.
test.beforeEach(async ({ page }) => {
  const address = `2001:db8::${randomBytes(8).toString('hex').match(/.{4}/g)?.join(':')}`;
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
});

const visitor = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace.hopper@example.com',
  subject: 'A question about your DST offerings',
  message: 'Hello,\nwhich properties are open to new investors this year?',
};

const fields = [
  [/^First Name/, visitor.firstName],
  [/^Last Name/, visitor.lastName],
  [/^Email/, visitor.email],
  [/^Subject/, visitor.subject],
  [/^Message/, visitor.message],
] as const;

/** Collects what the browser reports about CSP violations and page errors. */
function watchForProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content[- ]Security[- ]Policy|Refused to/i.test(message.text())) {
      problems.push(message.text());
    }
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

async function openContactForm(page: Page) {
  await page.goto('/');
  // The form loads when its section comes near the viewport.
  await page.locator('#contact').scrollIntoViewIfNeeded();
  const form = page.getByRole('form', { name: 'Contact form' });
  await expect(form.getByLabel(/^First Name/)).toBeVisible();
  return form;
}

async function fillAndVerify(page: Page) {
  const form = await openContactForm(page);
  for (const [label, value] of fields) await form.getByLabel(label).fill(value);
  // The label, as a visitor does: the widget draws its tick mark over the box itself.
  await form.getByText("I'm not a robot", { exact: true }).click();
  await expect(form.getByText('Verified')).toBeVisible({ timeout: 30_000 });
  return form;
}

test('a visitor sends a message with the default captcha, sees Success! and a cleared form', async ({ page }) => {
  const problems = watchForProblems(page);
  const form = await fillAndVerify(page);
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/contact') && r.request().method() === 'POST');
  await form.getByRole('button', { name: 'Send Message' }).click();
  expect((await sent).status()).toBe(200);

  const toast = page.getByRole('listitem', { name: 'Success!' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("Your message has been sent. We'll get back to you soon.");
  for (const [label] of fields) await expect(form.getByLabel(label)).toHaveValue('');
  // The spent solution is gone: the captcha asks again.
  await expect(form.getByRole('checkbox', { name: "I'm not a robot" })).not.toBeChecked();
  expect(problems).toEqual([]);
});

test("when the server fails, the visitor sees the server's sentence and keeps what they typed", async ({ page }) => {
  await page.route('**/api/contact', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Our message service is down for a moment. Please try again shortly.' }),
    }),
  );
  const form = await fillAndVerify(page);
  await form.getByRole('button', { name: 'Send Message' }).click();

  const toast = page.getByRole('listitem', { name: 'Error' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Our message service is down for a moment. Please try again shortly.');
  for (const [label, value] of fields) await expect(form.getByLabel(label)).toHaveValue(value);
});

test('clicking each label focuses its field', async ({ page }) => {
  const form = await openContactForm(page);
  for (const [label] of fields) {
    await form.locator('label').filter({ hasText: label }).click();
    await expect(form.getByLabel(label)).toBeFocused();
  }
});

test('a focused field shows a ring of at least 2 px, not only its bottom border', async ({ page }) => {
  const form = await openContactForm(page);
  for (const [label] of fields) {
    const field = form.getByLabel(label);
    await field.focus();
    // The ring is drawn by the field or the box around it.
    const ring = await field.evaluate((control) => {
      for (let el: Element | null = control; el && el.tagName !== 'FORM'; el = el.parentElement) {
        const style = getComputedStyle(el);
        // Fluent keeps a transparent 2 px outline for high-contrast mode: that one shows nothing.
        const visible = style.outlineColor !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(style.outlineColor);
        if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && visible) {
          return `${style.outlineWidth} ${style.outlineColor}`;
        }
      }
      return null;
    });
    expect(ring, String(label)).not.toBeNull();
  }
});

test('clicking Send Message twice at once sends one message', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/contact') && request.method() === 'POST') posts.push(request.url());
  });
  const form = await fillAndVerify(page);
  // Two clicks in one task: before any re-render could disable the button.
  await form.getByRole('button', { name: 'Send Message' }).evaluate((button: HTMLButtonElement) => {
    button.click();
    button.click();
  });

  await expect(page.getByRole('listitem', { name: 'Success!' })).toBeVisible();
  await expect(form.getByLabel(/^First Name/)).toHaveValue('');
  expect(posts).toHaveLength(1);
  await expect(page.getByRole('listitem', { name: 'Error' })).toHaveCount(0);
});

test('the captcha takes the room kept for it: the Send button does not move when it arrives', async ({ page }) => {
  // The captcha's configuration is held until the form is on screen with its placeholder.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/recaptcha-site-key', async (route) => {
    await held;
    await route.continue();
  });
  const form = await openContactForm(page);
  await expect(form.getByRole('status')).toHaveText(publicMessages.loadingCaptcha);
  const send = form.getByRole('button', { name: /^Send/ });
  const before = await send.boundingBox();
  release();
  await expect(form.getByText("I'm not a robot", { exact: true })).toBeVisible();
  expect((await send.boundingBox())?.y).toBe(before?.y);
});
