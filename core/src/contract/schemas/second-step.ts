import { z } from 'zod';
import { idOf } from './fields';
import { loginAnswer } from './auth';

// Two-step sign-in (issue 21): a TOTP authenticator app with single-use backup codes.

/** The second steps a user can be asked for at sign-in. */
export const secondStepMethods = ['totp', 'backup-code'] as const;
export type SecondStepMethod = (typeof secondStepMethods)[number];

/** How many backup codes a set holds; a new set voids the old one. */
export const backupCodeCount = 10;

/**
 * What POST /api/investor/login answers for an account with a second step, instead of the
 * session: `mfaToken` proves the password was right, for a few minutes and one verify call.
 */
export const secondStepRequiredAnswer = z.object({
  mfaRequired: z.literal(true),
  mfaToken: z.string(),
  methods: z.array(z.enum(secondStepMethods)),
});
export type SecondStepRequiredAnswer = z.infer<typeof secondStepRequiredAnswer>;

/** The spec's `{ token, user }`, or the request for a second step. */
export const loginOrSecondStepAnswer = z.union([loginAnswer, secondStepRequiredAnswer]);
export type LoginOrSecondStepAnswer = z.infer<typeof loginOrSecondStepAnswer>;

const enterCode = 'Please enter the code from your authenticator app or a backup code.';

/** A 6-digit TOTP code or a backup code; spaces and dashes people type are ignored. */
export const secondStepCode = z
  .string({ error: enterCode })
  .max(40, enterCode)
  .transform((value) => value.replace(/[\s-]/g, '').toLowerCase())
  .pipe(z.string().min(1, enterCode));

export const loginVerifyBody = z.object({
  mfaToken: z.string({ error: 'Please sign in again.' }).min(1, 'Please sign in again.').max(200, 'Please sign in again.'),
  code: secondStepCode,
});
export type LoginVerifyBody = z.infer<typeof loginVerifyBody>;

/**
 * The signed-in user's second step. `required`: the server's REQUIRE_SECOND_STEP names this
 * user's role, so the portal asks for the set-up right after sign-in.
 */
export const secondStepStatusAnswer = z.object({
  totp: z.boolean(),
  backupCodesLeft: z.number().int().nonnegative(),
  required: z.boolean(),
});
export type SecondStepStatusAnswer = z.infer<typeof secondStepStatusAnswer>;

/**
 * A new TOTP secret waiting for its first code. Shown once: it is never answered again after
 * the set-up is confirmed. `qrSvg` is the otpauth address drawn as an SVG by the server.
 */
export const startTotpAnswer = z.object({
  message: z.string(),
  secret: z.string(),
  otpauthUrl: z.string(),
  qrSvg: z.string(),
});
export type StartTotpAnswer = z.infer<typeof startTotpAnswer>;

const totpCode = z
  .string({ error: 'Please enter the 6-digit code from your authenticator app.' })
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Please enter the 6-digit code from your authenticator app.'));

export const confirmTotpBody = z.object({ code: totpCode });
export type ConfirmTotpBody = z.infer<typeof confirmTotpBody>;

/** Backup codes in clear, answered once when made; the server keeps only their hashes. */
export const backupCodesAnswer = z.object({ message: z.string(), backupCodes: z.array(z.string()) });
export type BackupCodesAnswer = z.infer<typeof backupCodesAnswer>;

/** Turning the second step off or making new backup codes asks for a current code again. */
export const secondStepProofBody = z.object({ code: secondStepCode });
export type SecondStepProofBody = z.infer<typeof secondStepProofBody>;

export const adminSecondStepQuery = z.object({ userId: idOf('user') });
export type AdminSecondStepQuery = z.infer<typeof adminSecondStepQuery>;

export const adminSecondStepAnswer = z.object({ totp: z.boolean(), backupCodesLeft: z.number().int().nonnegative() });
export type AdminSecondStepAnswer = z.infer<typeof adminSecondStepAnswer>;

export const removeSecondStepBody = z.object({ userId: idOf('user') });
export type RemoveSecondStepBody = z.infer<typeof removeSecondStepBody>;
