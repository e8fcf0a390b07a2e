import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  ChangePasswordAnswer,
  ChangePasswordBody,
  LoginBody,
  LoginOrSecondStepAnswer,
  MessageAnswer,
  ResetPasswordBody,
  ValidateResetTokenAnswer,
} from '@everest/core/contract';
import { displayName, portalMessages, portalSuccess, signInCodeMessages } from '@everest/core/domain';
import type { Config } from '../../config';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import { enqueueMail } from '../mail/outbox';
import { rateLimiter, type RateLimit } from '../rate-limit/rate-limiter';
import { User } from '../users/user.entity';
import { passwordChangedMail, passwordResetDoneMail } from './auth-mail';
import type { CaptchaProvider } from '../captcha/captcha-provider';
import { countAttempt, countSignIn } from './login-attempts';
import { proveOwner } from './owner-proof';
import type { Logger } from '../../logger';
import { checkSignInCode, sendSignInCode } from './sign-in-code';
import { hashPassword, verifyPassword } from './password-hash';
import { hashResetToken, queuePasswordResetMail, setPasswordFailureLimit, tooManySetPasswordFailures, voidResetTokens } from './password-links';
import { EndedSession } from './ended-session.entity';
import { PasswordResetToken } from './password-reset-token.entity';
import { secondStepChallenge } from './second-step/second-step-sign-in';
import { activeSessionUser, sessionTokens, startSession } from './session';

// ---- Limits (sign-in failures: login-attempts.ts) ---------------------------------------------

export const resetRequestLimitPerAddress: RateLimit = { limit: 20, windowMs: 60 * 60_000 };
export const resetRequestLimitPerEmail: RateLimit = { limit: 5, windowMs: 60 * 60_000 };

/** Set-password links looked at or used, per address (password-links.ts `setPasswordFailureLimit`). */
const setPasswordFailureKey = (address: string) => `set-password-failure:ip:${address}`;

/**
 * A reset request answers no sooner than this, whether or not the address has an account, so
 * that the time it takes (a lookup, or a lookup plus two inserts) does not tell them apart.
 */
export const resetRequestMinimumMs = 300;

const invalidCredentials = 'Invalid email or password.';
const tooManyResetRequests = 'Too many password reset requests.';
const wrongCurrentPassword = portalMessages.changePasswordFailed;
const invalidResetLink = portalMessages.invalidResetLink.description;

// ---- Helpers -------------------------------------------------------------------------------

let dummyHash: Promise<string> | undefined;

/**
 * A hash of a password nobody knows, verified when the e-mail has no account so that an
 * unknown address costs the same argon2 work as a wrong password. Made once per process.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  return dummyHash;
}

// ---- Sign-in -------------------------------------------------------------------------------

/** What a sign-in uses besides the database: the e-mailed code is queued, then the outbox woken. */
export interface SignInServices {
  config: Config;
  captcha: CaptchaProvider;
  logger: Logger;
  outbox: { kick: () => void };
}

/**
 * One answer for an unknown address, a wrong password and a deactivated account, after the same
 * argon2 work. Failures are counted so that a guesser is stopped and a stranger cannot lock the
 * owner out (login-attempts.ts): 429 for this account at this address or for this address's
 * budget, a proof of work first for an account many sign-ins failed on lately, and past the
 * account's guess ceiling the e-mailed code with the password.
 */
export async function login(
  em: EntityManager,
  deps: SignInServices,
  body: LoginBody,
  clientAddress: string,
): Promise<LoginOrSecondStepAnswer> {
  const { config } = deps;
  const attempt = await countSignIn(em, deps.captcha, { email: body.email, address: clientAddress, captcha: body.captcha });

  const user = await em.findOne(User, { email: body.email });
  const passwordMatches = await verifyPassword(user?.passwordHash || (await dummyPasswordHash()), body.password);
  const owner = user && passwordMatches && user.isActive ? user : null;
  // Past the ceiling one answer for every password, right or wrong, until the e-mailed code comes
  // with the right one: guesses beyond it teach nothing. The code goes only to whoever typed the
  // right password, so a stranger's guesses send the owner no mail.
  // The code is looked up (or a row that cannot exist is) and the mail sent after the answer, so
  // that the right password takes no longer to answer than a wrong one.
  const codeUsed = attempt.needsEmailedCode && body.emailCode !== undefined && (await checkSignInCode(em, config, owner, body.emailCode));
  const codeMissing = attempt.needsEmailedCode && !codeUsed;
  if (!owner || codeMissing) {
    if (owner) {
      await attempt.succeeded();
      if (!body.emailCode) {
        void sendSignInCode(em.fork(), config, owner).then(
          () => deps.outbox.kick(),
          (error: unknown) => deps.logger.error('A sign-in code could not be queued.', error),
        );
      }
    } else {
      await attempt.failed(user);
    }
    throw attempt.needsEmailedCode
      ? new HttpError(401, signInCodeMessages.needed, {}, { emailCodeRequired: true })
      : new HttpError(401, invalidCredentials);
  }
  await attempt.succeeded();

  // An account with a second step gets a challenge instead: the session comes from loginVerify.
  const challenge = await secondStepChallenge(em, owner);
  return challenge ?? startSession(em, config, owner, { secondStep: false });
}

// ---- Sign-out ------------------------------------------------------------------------------

/**
 * Ends the caller's session on every instance (the database tells the others), and only that
 * one: the user's other devices stay signed in. Sign-outs whose tokens have expired are
 * forgotten now and then.
 */
export async function logout(em: EntityManager, sessionUser: SessionUser): Promise<MessageAnswer> {
  const { id, expiresAt } = sessionUser.session;
  await em.getConnection().execute(
    'insert into ended_sessions (session_id, user_id, expires_at) values (?, ?, ?) on conflict (session_id) do nothing',
    [id, sessionUser.id, expiresAt],
  );
  if (Math.random() < 0.01) await em.nativeDelete(EndedSession, { expiresAt: { $lt: new Date() } });
  return { message: 'You have been signed out.' };
}

// ---- Password reset ------------------------------------------------------------------------

/**
 * Queues a single-use link for an active account. The answer, and its timing, are the same for
 * any address, so the call cannot be used to find out who has an account.
 */
export async function requestPasswordReset(
  em: EntityManager,
  config: Config,
  email: string,
  clientAddress: string,
): Promise<MessageAnswer> {
  const started = Date.now();
  await rateLimiter.consume(em, `password-reset:ip:${clientAddress}`, resetRequestLimitPerAddress, tooManyResetRequests);
  await rateLimiter.consume(em, `password-reset:email:${email}`, resetRequestLimitPerEmail, tooManyResetRequests);

  await em.transactional(async (tx) => {
    const user = await tx.findOne(User, { email, isActive: true });
    if (user) queuePasswordResetMail(tx, config, user);
  });

  const remaining = resetRequestMinimumMs - (Date.now() - started);
  if (remaining > 0) await sleep(remaining);
  return { message: portalSuccess.resetLinkSent.description };
}

async function usableToken(em: EntityManager, token: string, lock: boolean) {
  const row = await em.findOne(
    PasswordResetToken,
    { tokenHash: hashResetToken(token) },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!row || row.usedAt || row.expiresAt.getTime() <= Date.now()) return null;
  const user = await em.findOne(User, { id: row.user.id, isActive: true });
  return user ? { row, user } : null;
}

/** An unknown, used or expired link is an ordinary answer, so the portal can say so. */
export async function validateResetToken(em: EntityManager, token: string, clientAddress: string): Promise<ValidateResetTokenAnswer> {
  const attempt = await countAttempt(em, [setPasswordFailureKey(clientAddress)], setPasswordFailureLimit, tooManySetPasswordFailures);
  const found = await usableToken(em, token, false);
  if (found) await attempt.release();
  return found ? { valid: true, userName: displayName(found.user) } : { valid: false, error: portalMessages.invalidResetToken };
}

/**
 * Sets the new password, uses up the link (and every other link of the user) and ends all the
 * user's sessions, in one transaction with the confirmation e-mail. The token row is locked, so
 * two requests racing with the same link cannot both succeed.
 */
export async function resetPassword(em: EntityManager, body: ResetPasswordBody, clientAddress: string): Promise<MessageAnswer> {
  const attempt = await countAttempt(em, [setPasswordFailureKey(clientAddress)], setPasswordFailureLimit, tooManySetPasswordFailures);
  const passwordHash = await hashPassword(body.password);
  await em.transactional(async (tx) => {
    const found = await usableToken(tx, body.token, true);
    if (!found) throw new HttpError(400, invalidResetLink);
    const { row, user } = found;
    const now = new Date();
    row.usedAt = now;
    user.passwordHash = passwordHash;
    user.tokenVersion += 1;
    await voidResetTokens(tx, user, now);
    enqueueMail(tx, passwordResetDoneMail(user.email, displayName(user)));
  });
  await attempt.release();
  return { message: portalSuccess.passwordReset.description };
}

// ---- Change password -----------------------------------------------------------------------

/**
 * Every role, administrators included, proves it is the account's owner (DECISIONS.md, changed
 * 2026-11-27): the current password, refused with the spec's sentence, or a second-step code.
 * Every session of the user ends; the caller gets a fresh one.
 */
export async function changePassword(
  em: EntityManager,
  config: Config,
  sessionUser: SessionUser,
  body: ChangePasswordBody,
  clientAddress: string,
): Promise<ChangePasswordAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  await proveOwner(em, config, user, { currentPassword: body.currentPassword, code: body.code }, clientAddress, wrongCurrentPassword);

  const passwordHash = await hashPassword(body.newPassword);
  const tokenVersion = await em.transactional(async (tx) => {
    const row = await tx.findOneOrFail(User, user.id);
    row.passwordHash = passwordHash;
    row.tokenVersion += 1;
    await voidResetTokens(tx, row, new Date());
    enqueueMail(tx, passwordChangedMail(row.email, displayName(row)));
    return row.tokenVersion;
  });
  // The new session was opened the way this one was.
  const token = await sessionTokens(config).issue({ userId: user.id, tokenVersion, secondStep: sessionUser.session.secondStep });
  return { message: portalSuccess.passwordChanged.description, token };
}
