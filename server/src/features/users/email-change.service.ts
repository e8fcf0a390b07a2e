import { createHash, randomBytes } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EmailChangeLinkAnswer, PendingEmailChange } from '@everest/core/contract';
import { displayName, formatDateTime, passwordResetTokenLifetimeMs, portalMessages, portalSuccess } from '@everest/core/domain';
import type { Config } from '../../config';
import { HttpError } from '../../http/errors';
import { createPasswordLink, setPasswordFailureLimit, voidResetTokens } from '../auth/password-links';
import { countAttempt } from '../auth/login-attempts';
import { enqueueMail } from '../mail/outbox';
import { rateLimiter, type RateLimit } from '../rate-limit/rate-limiter';
import { EmailChange, type IEmailChange } from './email-change.entity';
import {
  confirmNewEmailMail,
  emailAlreadyUsedMail,
  emailChangeConfirmedMail,
  emailChangeRequestedMail,
  emailChangeUndoneMail,
} from './email-change-mail';
import { User, type IUser } from './user.entity';

// A session alone must not move an account to another address. A new address asked
// for in Manage Profile (with an owner proof, profile.service.ts) takes effect only when the link
// sent to it is opened; the old address is told at once, with a link that puts it back.

/** How long the new address's link works: a day, as people read mail at different hours. */
export const emailConfirmLifetimeMs = 24 * 60 * 60_000;
/** How long the old address's undo link works, even after the change was confirmed: two weeks, for a holiday. */
export const emailUndoLifetimeMs = 14 * 24 * 60 * 60_000;
/** Changes asked for per account: each sends two e-mails, one of them to any address the caller types. */
export const emailChangeRequestLimit: RateLimit = { limit: 5, windowMs: 60 * 60_000 };
const tooManyEmailChanges = 'Too many email address changes were asked for.';

/** Unknown, used or expired links per client address, as for password links (auth.service.ts). */
const linkFailureKey = (address: string) => `email-change-link-failure:ip:${address}`;
const tooManyLinkFailures = 'Too many invalid email links were tried. Please try again later.';

const invalidLink = portalMessages.invalidEmailChangeLink.description;
const addressTaken = (email: string) =>
  `The address ${email} is now used by another account, so it cannot be this account's. Nothing was changed; please contact Investor Relations.`;

const raceLost = 'That address was just taken by another account, so nothing was changed. Please contact Investor Relations.';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

/** A page of the portal that reads the token from its address and posts it (never logged: page queries are not). */
function portalLink(config: Config, param: 'confirmEmail' | 'undoEmail', token: string): string {
  // Built from configuration only: a forged Host header must never choose where the link points.
  return `${config.publicUrl}/investor-services?${param}=${encodeURIComponent(token)}`;
}

/** The user's change still waiting for its link, if any. */
async function pendingRow(em: EntityManager, userId: number): Promise<IEmailChange | null> {
  return em.findOne(
    EmailChange,
    { user: userId, confirmedAt: null, cancelledAt: null, undoneAt: null, confirmExpiresAt: { $gt: new Date() } },
    { orderBy: { id: 'desc' } },
  );
}

export async function pendingEmailChange(em: EntityManager, userId: number): Promise<PendingEmailChange | null> {
  const row = await pendingRow(em, userId);
  return row && { email: row.newEmail, expiresAt: row.confirmExpiresAt.toISOString() };
}

/** Withdraws every change of the user still waiting for its link. */
async function cancelPending(em: EntityManager, userId: number, now: Date): Promise<void> {
  await em.nativeUpdate(EmailChange, { user: userId, confirmedAt: null, cancelledAt: null, undoneAt: null }, { cancelledAt: now });
}

/**
 * Voids every address link of the user that an earlier address received: changes still waiting
 * for their link, and the undo links of past changes, which would take an old address back and
 * send it a reset link. Called when the address changes by any other way than these links.
 */
export async function voidEmailChangeLinks(em: EntityManager, userId: number, now: Date): Promise<void> {
  await cancelPending(em, userId, now);
  await em.nativeUpdate(EmailChange, { user: userId, undoneAt: null, undoExpiresAt: { $gt: now } }, { undoExpiresAt: now });
}

/** Counts a change asked for by this account, refusing it past the hourly limit (before any proof is checked). */
export async function countEmailChangeRequest(em: EntityManager, userId: number): Promise<void> {
  await rateLimiter.consume(em, `email-change:user:${userId}`, emailChangeRequestLimit, tooManyEmailChanges);
}

/**
 * Records a change of `user`'s address to `newEmail` in the caller's transaction (the user's row
 * locked by it), replacing any change still waiting, and queues its e-mails: the link to the new
 * address, and the notice with the undo link to the old one. An address another account uses
 * (or the built-in administrator's) gets a note instead of a link, and the caller's answer is
 * the same, so the call cannot be used to learn who has an account; its link could never be
 * used, as nobody receives it.
 */
export async function requestEmailChange(em: EntityManager, config: Config, user: IUser, newEmail: string): Promise<PendingEmailChange> {
  const now = new Date();
  await cancelPending(em, user.id, now);
  const confirmToken = newToken();
  const undoToken = newToken();
  const row = em.create(EmailChange, {
    user,
    oldEmail: user.email,
    newEmail,
    confirmTokenHash: hashToken(confirmToken),
    undoTokenHash: hashToken(undoToken),
    confirmExpiresAt: new Date(now.getTime() + emailConfirmLifetimeMs),
    undoExpiresAt: new Date(now.getTime() + emailUndoLifetimeMs),
  });

  const holder = await em.findOne(User, { email: newEmail }, { fields: ['firstName', 'lastName', 'entity', 'email'] });
  if (holder || newEmail === config.adminEmail) {
    enqueueMail(em, emailAlreadyUsedMail(newEmail, holder ? displayName(holder) : ''));
  } else {
    enqueueMail(em, confirmNewEmailMail(newEmail, portalLink(config, 'confirmEmail', confirmToken), emailConfirmLifetimeMs));
  }
  enqueueMail(em, emailChangeRequestedMail(user.email, displayName(user), newEmail, portalLink(config, 'undoEmail', undoToken), emailUndoLifetimeMs));
  return { email: row.newEmail, expiresAt: row.confirmExpiresAt.toISOString() };
}

/** The owner withdraws the change still waiting for its link; no proof, as it only keeps the address. */
export async function cancelEmailChange(em: EntityManager, userId: number): Promise<void> {
  await cancelPending(em, userId, new Date());
}

/**
 * The row of a link and its active user, both locked; null when the link cannot be used. The
 * user's row is locked first, as update-profile does, so that the two never wait for each other.
 */
async function linkRow(em: EntityManager, where: { confirmTokenHash: string } | { undoTokenHash: string }) {
  const found = await em.findOne(EmailChange, where, { fields: ['user'] });
  if (!found) return null;
  const user = await em.findOne(User, { id: found.user.id, isActive: true }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!user) return null;
  const row = await em.findOne(EmailChange, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  return row ? { row, user } : null;
}

/** Whether another account (or the built-in administrator's address) holds `email`. */
async function takenByAnother(em: EntityManager, config: Config, email: string, userId: number): Promise<boolean> {
  if (email === config.adminEmail) return true;
  return (await em.count(User, { email, id: { $ne: userId } })) > 0;
}

/**
 * The new address's link: the account takes that address, if it still has the address the change
 * was asked from and no other account took the new one meanwhile (the unique index decides a
 * race). Reset links sent to the old address stop working; the old address is told. Sessions go
 * on: the change was proven by the session's owner and confirmed from the new address.
 */
export async function confirmEmailChange(em: EntityManager, config: Config, token: string, address: string): Promise<EmailChangeLinkAnswer> {
  const attempt = await countAttempt(em, [linkFailureKey(address)], setPasswordFailureLimit, tooManyLinkFailures);
  const answer = await em
    .transactional(async (tx) => {
      const found = await linkRow(tx, { confirmTokenHash: hashToken(token) });
      const now = new Date();
      if (!found) return null;
      const { row, user } = found;
      if (row.confirmedAt || row.cancelledAt || row.undoneAt || row.confirmExpiresAt <= now || user.email !== row.oldEmail) return null;
      await attempt.release();
      if (await takenByAnother(tx, config, row.newEmail, user.id)) {
        row.cancelledAt = now;
        return { taken: true, email: row.newEmail };
      }
      user.email = row.newEmail;
      row.confirmedAt = now;
      await voidResetTokens(tx, user, now);
      enqueueMail(tx, emailChangeConfirmedMail(row.oldEmail, displayName(user), row.newEmail, formatDateTime(row.undoExpiresAt)));
      return { taken: false, email: row.newEmail };
    })
    .catch((error: unknown) => {
      if (error instanceof UniqueConstraintViolationException) throw new HttpError(409, raceLost);
      throw error;
    });
  if (!answer) throw new HttpError(400, invalidLink);
  // Committed above so that the row says it can no longer be used.
  if (answer.taken) throw new HttpError(409, addressTaken(answer.email));
  return { message: portalSuccess.emailChangeConfirmed(answer.email).description, email: answer.email };
}

/**
 * The old address's link ("this was not me"), which works until it expires, whatever became of
 * the change: the account takes the old address back, every change still waiting is withdrawn,
 * every session ends, reset links stop working, and the old address gets a fresh link to choose a
 * new password, since whoever asked for the change may know it.
 */
export async function undoEmailChange(em: EntityManager, config: Config, token: string, address: string): Promise<EmailChangeLinkAnswer> {
  const attempt = await countAttempt(em, [linkFailureKey(address)], setPasswordFailureLimit, tooManyLinkFailures);
  const email = await em
    .transactional(async (tx) => {
      const found = await linkRow(tx, { undoTokenHash: hashToken(token) });
      const now = new Date();
      if (!found || found.row.undoneAt || found.row.undoExpiresAt <= now) return null;
      const { row, user } = found;
      await attempt.release();
      if (user.email !== row.oldEmail && (await takenByAnother(tx, config, row.oldEmail, user.id))) {
        throw new HttpError(409, addressTaken(row.oldEmail));
      }
      user.email = row.oldEmail;
      user.tokenVersion += 1;
      row.undoneAt = now;
      await cancelPending(tx, user.id, now);
      await voidResetTokens(tx, user, now);
      const resetLink = createPasswordLink(tx, config, user, passwordResetTokenLifetimeMs);
      enqueueMail(tx, emailChangeUndoneMail(row.oldEmail, displayName(user), resetLink, passwordResetTokenLifetimeMs / 60_000));
      return row.oldEmail;
    })
    .catch((error: unknown) => {
      if (error instanceof UniqueConstraintViolationException) throw new HttpError(409, raceLost);
      throw error;
    });
  if (!email) throw new HttpError(400, invalidLink);
  return { message: portalSuccess.emailChangeUndone(email).description, email };
}
