import { z } from 'zod';
import { fieldMax } from '../../domain/limits';
import { portalMessages, signInCodeMessages } from '../../domain/messages';
import { newPassword } from '../../domain/password';
import { emailAddress } from './fields';
import { ownerProofFields } from './owner-proof';
import { user } from './user';

// Passwords are never trimmed: a space is a character of the password.

export const loginBody = z.object({
  email: emailAddress(portalMessages.enterEmail),
  password: z
    .string({ error: 'Please enter your password.' })
    .min(1, 'Please enter your password.')
    .max(fieldMax.password, portalMessages.loginFailed),
  /**
   * The captcha's answer (the ALTCHA payload of GET /api/captcha/challenge solved, or a
   * reCAPTCHA token, as the contact form's `recaptchaToken`), sent only after an answer of
   * `signInCheckAnswer`. Without it the spec's call stays as it was.
   */
  captcha: z.string({ error: 'The verification must be text.' }).max(fieldMax.captchaToken, 'The verification is too long.').optional(),
  /** The code e-mailed after an answer of `signInCodeAnswer`, sent with the password again. */
  emailCode: z
    .string({ error: signInCodeMessages.invalid })
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, signInCodeMessages.invalid))
    .optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

/**
 * The 401 of a password sign-in to an account past its guess ceiling (100 failed passwords in an
 * hour, or many wrong second-step codes): whatever the password, the same answer, and a code
 * e-mailed to the account when the password was right. The client asks for the code and sends
 * the same sign-in again with `emailCode`.
 */
export const signInCodeAnswer = z.object({ error: z.string(), emailCodeRequired: z.literal(true) });
export type SignInCodeAnswer = z.infer<typeof signInCodeAnswer>;

/**
 * The 429 of a sign-in to an account many sign-ins have failed on lately, from anywhere (issue
 * 33): no refusal of the password, but a proof of work first. The client solves the captcha
 * (`GET /api/recaptcha-site-key` says which; ALTCHA: `GET /api/captcha/challenge`) and sends the
 * sign-in again with `captcha`. Other 429s of sign-in (one address's failures) carry no flag
 * and a Retry-After.
 */
export const signInCheckAnswer = z.object({ error: z.string(), captchaRequired: z.literal(true) });
export type SignInCheckAnswer = z.infer<typeof signInCheckAnswer>;

export const loginAnswer = z.object({ token: z.string(), user });
export type LoginAnswer = z.infer<typeof loginAnswer>;

/**
 * Every role, administrators included, proves it is the account's owner: the current password, or
 * a current second-step code (DECISIONS.md, changed 2026-11-27). The spec's "fixed override value"
 * of administrators is no longer honoured: it let a stolen administrator session take the most
 * powerful account. An administrator who forgot the password uses a reset link.
 */
export const changePasswordBody = z.object({
  ...ownerProofFields,
  newPassword,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/**
 * decided: a password change ends every session of the user, the one that made it included;
 * `token` is a fresh session for the caller, so that only the other devices are signed out.
 */
export const changePasswordAnswer = z.object({ message: z.string(), token: z.string() });
export type ChangePasswordAnswer = z.infer<typeof changePasswordAnswer>;

export const requestPasswordResetBody = z.object({ email: emailAddress(portalMessages.enterEmail) });
export type RequestPasswordResetBody = z.infer<typeof requestPasswordResetBody>;

const resetToken = z
  .string({ error: portalMessages.invalidResetToken })
  .trim()
  .min(1, portalMessages.invalidResetToken)
  .max(fieldMax.resetToken, portalMessages.invalidResetToken);

export const validateResetTokenParams = z.object({ token: resetToken });
export type ValidateResetTokenParams = z.infer<typeof validateResetTokenParams>;

/**
 * decided: an unknown, used or expired token is a normal answer (`valid: false` with `error`),
 * not an error status, so the portal can show its 'Invalid or Expired Reset Link' state.
 */
export const validateResetTokenAnswer = z.object({
  valid: z.boolean(),
  userName: z.string().optional(),
  error: z.string().optional(),
});
export type ValidateResetTokenAnswer = z.infer<typeof validateResetTokenAnswer>;

export const resetPasswordBody = z
  .object({
    token: resetToken,
    password: z
      .string({ error: portalMessages.fillInAllFields })
      .min(1, portalMessages.fillInAllFields)
      .pipe(newPassword),
    confirmPassword: z.string({ error: portalMessages.fillInAllFields }).min(1, portalMessages.fillInAllFields),
  })
  .refine((body) => body.password === body.confirmPassword, {
    path: ['confirmPassword'],
    error: portalMessages.passwordsDoNotMatch,
  });
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;
