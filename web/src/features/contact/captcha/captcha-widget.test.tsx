import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publicMessages } from '@everest/core/domain';
import { CaptchaWidget } from './captcha-widget';

/** The browser's fetch, answering GET /api/recaptcha-site-key. */
function answerSiteKey(response: () => Response) {
  const fetch = vi.fn(async (_input: RequestInfo | URL) => response());
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const script of document.head.querySelectorAll('script')) script.remove();
});

// The order matters: a successful answer is kept for the page's lifetime (one request per load).
describe('CaptchaWidget', () => {
  it('keeps the loading placeholder, and only logs, when the site key cannot be fetched', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    answerSiteKey(() => new Response(JSON.stringify({ error: 'Down.' }), { status: 503 }));
    render(<CaptchaWidget onToken={() => {}} resetSignal={0} />);
    expect(screen.getByRole('status').textContent).toBe(publicMessages.loadingCaptcha);
    await vi.waitFor(() => expect(logged).toHaveBeenCalledWith('Could not load the captcha configuration.', expect.anything()));
    expect(screen.getByRole('status').textContent).toBe(publicMessages.loadingCaptcha);
  });

  it("asks for Google's script for explicit rendering when reCAPTCHA is configured, and reports when it cannot load", async () => {
    // happy-dom loads no scripts: the load fails, which is what a blocked Google looks like.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetch = answerSiteKey(() => Response.json({ siteKey: 'site-key', provider: 'recaptcha' }));
    const onError = vi.fn();
    render(<CaptchaWidget onToken={() => {}} onError={onError} resetSignal={0} />);
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(onError.mock.calls[0]?.[0]).toMatch(/^The reCAPTCHA verification could not be loaded\./);
    expect(logged).toHaveBeenCalledWith(
      'Could not load reCAPTCHA.',
      new Error('Could not load https://www.google.com/recaptcha/api.js?render=explicit.'),
    );
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]?.[0])).toMatch(/\/api\/recaptcha-site-key$/);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
