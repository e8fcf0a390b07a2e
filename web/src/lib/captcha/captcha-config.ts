import type { RecaptchaSiteKeyAnswer } from '@everest/core/contract';
import { api } from '../api';

// One request per page load, shared by every caller (the contact form's widget, the sign-in's
// check; StrictMode mounts twice in development). A failed request is forgotten, so that a
// later call may try again.
let captchaConfig: Promise<RecaptchaSiteKeyAnswer> | null = null;

/** Which captcha the server is configured with (GET /api/recaptcha-site-key). */
export function loadCaptchaConfig(): Promise<RecaptchaSiteKeyAnswer> {
  captchaConfig ??= api.call('recaptchaSiteKey').catch((error: unknown) => {
    captchaConfig = null;
    throw error;
  });
  return captchaConfig;
}
