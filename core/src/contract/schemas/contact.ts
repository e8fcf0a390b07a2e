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
}, { error: 'Please send the fields of the contact form as a JSON object.' });
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

/** The action a reCAPTCHA Enterprise token of the contact form is bound to; the server checks it. */
export const recaptchaContactAction = 'contact';

/**
 * GET /api/captcha/challenge: a signed ALTCHA challenge (altcha-lib's v2 format), fetched by the
 * widget itself. Its parameters are the library's; only those the server relies on are named.
 */
export const captchaChallengeAnswer = z.object({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    /** Seconds since 1970: the challenge's solution is refused after this. */
    expiresAt: z.number(),
  }),
  signature: z.string(),
});
export type CaptchaChallengeAnswer = z.infer<typeof captchaChallengeAnswer>;
