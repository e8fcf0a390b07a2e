import { z } from 'zod';
import { idOf } from './fields';
import { loginAnswer } from './auth';
import { ownerProof, ownerProofFields, secondStepCode } from './owner-proof';

// Two-step sign-in: a TOTP authenticator app, passkeys (WebAuthn), and single-use
// backup codes.

/** The second steps a user can be asked for at sign-in. */
export const secondStepMethods = ['totp', 'backup-code', 'passkey'] as const;
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

const mfaToken = z.string({ error: 'Please sign in again.' }).min(1, 'Please sign in again.').max(200, 'Please sign in again.');

// ---- Passkeys (WebAuthn) --------------------------------------------------------------------
// The JSON forms of WebAuthn's options and answers, as @simplewebauthn/server makes them and
// @simplewebauthn/browser sends them: base64url strings throughout.

const base64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, 'Not base64url.');
const transports = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(10);
const credentialDescriptor = z.object({ id: base64url(1400), type: z.literal('public-key'), transports: transports.optional() });
const userVerification = z.enum(['required', 'preferred', 'discouraged']);

/** What the browser passes to navigator.credentials.create (through startRegistration). */
export const passkeyCreationOptions = z.object({
  rp: z.object({ id: z.string().optional(), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification: userVerification.optional(),
    })
    .optional(),
  attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']).optional(),
});
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptions>;

/** What the browser passes to navigator.credentials.get (through startAuthentication). */
export const passkeyRequestOptions = z.object({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: userVerification.optional(),
});
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptions>;

const publicKeyCredential = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  // Only credProps is of use to us; other extension outputs are dropped.
  clientExtensionResults: z.object({ credProps: z.object({ rk: z.boolean().optional() }).optional() }).default({}),
};
const passkeyRefused = 'The passkey answer could not be read. Please try again.';

/** A new credential from navigator.credentials.create, as startRegistration answers it. */
export const passkeyRegistrationResponse = z.object(
  {
    ...publicKeyCredential,
    response: z.object({
      clientDataJSON: base64url(4000),
      attestationObject: base64url(20_000),
      authenticatorData: base64url(20_000).optional(),
      transports: z.array(z.string().max(20)).max(10).optional(),
      publicKeyAlgorithm: z.number().optional(),
      publicKey: base64url(4000).optional(),
    }),
  },
  { error: passkeyRefused },
);
export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponse>;

/** A signed challenge from navigator.credentials.get, as startAuthentication answers it. */
export const passkeyAuthenticationResponse = z.object(
  {
    ...publicKeyCredential,
    response: z.object({
      clientDataJSON: base64url(4000),
      authenticatorData: base64url(20_000),
      // ML-DSA signatures are 2,420 to 4,627 bytes (6,170 characters): SimpleWebAuthn offers
      // ML-DSA-44 first where the runtime can verify it (Node 24), and Chromium then uses it.
      signature: base64url(8000),
      userHandle: base64url(200).optional(),
    }),
  },
  { error: passkeyRefused },
);
export type PasskeyAuthenticationResponse = z.infer<typeof passkeyAuthenticationResponse>;

/** The second half of a sign-in: a code (TOTP or backup), or a passkey's signed challenge. */
export const loginVerifyBody = z.union([
  z.object({ mfaToken, code: secondStepCode }),
  z.object({ mfaToken, passkey: passkeyAuthenticationResponse }),
]);
export type LoginVerifyBody = z.infer<typeof loginVerifyBody>;

/**
 * The signed-in user's second step. `required`: the server's REQUIRE_SECOND_STEP names this
 * user's role, so the portal asks for the set-up right after sign-in.
 */
export const passkeySummary = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeySummary = z.infer<typeof passkeySummary>;

export const secondStepStatusAnswer = z.object({
  totp: z.boolean(),
  passkeys: z.array(passkeySummary),
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

/**
 * Turning two-step sign-in on or off ends every other session of the account, as a new password
 * does: such answers carry the caller's fresh session token, which replaces the old one.
 */
const continuedSession = { token: z.string().optional() };

/** Backup codes in clear, answered once when made; the server keeps only their hashes. */
export const backupCodesAnswer = z.object({ message: z.string(), backupCodes: z.array(z.string()) });
export type BackupCodesAnswer = z.infer<typeof backupCodesAnswer>;

/** The authenticator app confirmed; `token` when that turned two-step sign-in on (no passkey before). */
export const confirmTotpAnswer = backupCodesAnswer.extend(continuedSession);
export type ConfirmTotpAnswer = z.infer<typeof confirmTotpAnswer>;

/** A method removed; `token` when that turned two-step sign-in off. */
export const secondStepRemovedAnswer = z.object({ message: z.string(), ...continuedSession });
export type SecondStepRemovedAnswer = z.infer<typeof secondStepRemovedAnswer>;

/**
 * Every change of the user's own second step asks for an owner proof: starting
 * an authenticator app's set-up, asking for a new passkey's options, removing either, making new
 * backup codes. The current password, or a current code where the account has a second step.
 */
export const secondStepChangeBody = ownerProof;
export type SecondStepChangeBody = z.infer<typeof secondStepChangeBody>;

/**
 * Each method is removed on its own, but a role that must sign in with two steps
 * keeps one: removing the last is refused (409) with the sentence naming what to add first.
 */
export const keepOneSecondStep = {
  totp: 'Your role must sign in with two steps: add a passkey before removing the authenticator app.',
  passkey: 'Your role must sign in with two steps: add another passkey or an authenticator app before removing this one.',
} as const;

export const adminSecondStepQuery = z.object({ userId: idOf('user') });
export type AdminSecondStepQuery = z.infer<typeof adminSecondStepQuery>;

export const adminSecondStepAnswer = z.object({ totp: z.boolean(), passkeys: z.number().int().nonnegative(), backupCodesLeft: z.number().int().nonnegative() });
export type AdminSecondStepAnswer = z.infer<typeof adminSecondStepAnswer>;

export const removeSecondStepBody = z.object({ userId: idOf('user') });
export type RemoveSecondStepBody = z.infer<typeof removeSecondStepBody>;

// ---- Passkeys in Manage Profile -------------------------------------------------------------

/** How many passkeys one account may keep: a phone, a laptop, a security key or two. */
export const maxPasskeys = 10;

/** The options of a new passkey; its challenge is kept by the server for a short while, once. */
export const passkeyCreationOptionsAnswer = z.object({ options: passkeyCreationOptions });
export type PasskeyCreationOptionsAnswer = z.infer<typeof passkeyCreationOptionsAnswer>;

export const passkeyName = z
  .string({ error: 'Please give the passkey a name.' })
  .trim()
  .min(1, 'Please give the passkey a name.')
  .max(60, 'A passkey name is at most 60 characters.');

export const registerPasskeyBody = z.object({ name: passkeyName, response: passkeyRegistrationResponse });
export type RegisterPasskeyBody = z.infer<typeof registerPasskeyBody>;

/**
 * A registered passkey. The first second step of an account also makes its backup codes, shown
 * once here, and turns two-step sign-in on (`token`); `backupCodes` is empty when the account had
 * them already.
 */
export const registerPasskeyAnswer = z.object({ message: z.string(), backupCodes: z.array(z.string()), ...continuedSession });
export type RegisterPasskeyAnswer = z.infer<typeof registerPasskeyAnswer>;

/** Removing a passkey asks for an owner proof, so that a session left open cannot do it. */
export const removePasskeyBody = z.object({ passkeyId: idOf('passkey'), ...ownerProofFields });
export type RemovePasskeyBody = z.infer<typeof removePasskeyBody>;

/** The signed challenge a passkey sign-in needs, for the `mfaToken` of the password step. */
export const passkeySignInOptionsBody = z.object({ mfaToken });
export type PasskeySignInOptionsBody = z.infer<typeof passkeySignInOptionsBody>;

export const passkeyRequestOptionsAnswer = z.object({ options: passkeyRequestOptions });
export type PasskeyRequestOptionsAnswer = z.infer<typeof passkeyRequestOptionsAnswer>;
