import { z } from 'zod';
import { fieldMax } from '../../domain/limits';
import { publicMessages } from '../../domain/messages';
import { emailAddress, requiredText } from './fields';

const required = publicMessages.requiredFieldsEmpty;

export const contactBody = z.object({
  firstName: requiredText('First name', fieldMax.name, required),
  lastName: requiredText('Last name', fieldMax.name, required),
  email: emailAddress(required),
  subject: requiredText('Subject', fieldMax.subject, required),
  message: requiredText('Message', fieldMax.message, required),
  /** The captcha's answer, whichever provider is configured (ALTCHA payload or reCAPTCHA token). */
  recaptchaToken: requiredText('Verification', fieldMax.captchaToken, publicMessages.captchaNotDone),
});
export type ContactBody = z.infer<typeof contactBody>;

/** decided: `{ message }` with the sentence the success toast shows. */
export const contactAnswer = z.object({ message: z.string() });
export type ContactAnswer = z.infer<typeof contactAnswer>;

export const captchaProviders = ['altcha', 'recaptcha', 'recaptcha-enterprise'] as const;
export type CaptchaProvider = (typeof captchaProviders)[number];

/**
 * GET /api/recaptcha-site-key. `siteKey` is the reCAPTCHA site key ('' for ALTCHA);
 * `challengeUrl` is where the ALTCHA widget fetches its challenge.
 */
export const recaptchaSiteKeyAnswer = z.object({
  siteKey: z.string(),
  provider: z.enum(captchaProviders),
  challengeUrl: z.string().optional(),
});
export type RecaptchaSiteKeyAnswer = z.infer<typeof recaptchaSiteKeyAnswer>;
