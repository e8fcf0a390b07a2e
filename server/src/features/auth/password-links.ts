import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { displayName, passwordResetTokenLifetimeMs } from '@everest/core/domain';
import type { Config } from '../../config';
import { enqueueMail } from '../mail/outbox';
import type { RateLimit } from '../rate-limit/rate-limiter';
import type { IUser } from '../users/user.entity';
import { passwordResetMail } from './auth-mail';
import { PasswordResetToken } from './password-reset-token.entity';

/*
 * Set-password links: issued for a reset, a welcome or an address change, and voided when the
 * password or the address changes. The account screens (features/users), the user import and
 * shares issue them; the portal's reset page (auth.service.ts) consumes them.
 */

/**
 * Unknown, used or expired set-password links per client address, looked at or used.
 * A guess names no account, so only the address counts; a usable link is given back, so a real
 * user never uses the budget up. Counted before the new password is hashed, so a flood of
 * guesses cannot keep argon2 busy.
 */
export const setPasswordFailureLimit: RateLimit = { limit: 30, windowMs: 15 * 60_000 };
export const tooManySetPasswordFailures = 'Too many invalid password links were tried. Please try again later.';

/** Reset tokens are stored only as their SHA-256: a copy of the table opens no account. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Marks every unused reset link of a user as used: a new password (or address) voids the old links. */
export async function voidResetTokens(em: EntityManager, user: IUser, now: Date): Promise<void> {
  await em.nativeUpdate(PasswordResetToken, { user: user.id, usedAt: null }, { usedAt: now });
}

/** How long the set-password link of a welcome e-mail works: new investors do not all read their mail the same day. */
export const welcomeLinkLifetimeMs = 7 * 24 * 60 * 60_000;

/**
 * Stores a single-use password link for `user` in the caller's unit of work and answers its
 * address, which only the e-mail it goes into ever holds (the table keeps the token's hash).
 * The portal's reset page consumes it, whatever e-mail carried it.
 */
export function createPasswordLink(em: EntityManager, config: Config, user: IUser, lifetimeMs: number): string {
  const token = randomBytes(32).toString('base64url');
  em.create(PasswordResetToken, { user, tokenHash: hashResetToken(token), expiresAt: new Date(Date.now() + lifetimeMs) });
  // Built from configuration only: a forged Host header must never choose where the link points.
  return `${config.publicUrl}/investor-services?resetToken=${encodeURIComponent(token)}`;
}

/** Queues a reset e-mail for `user` with a fresh link, in the caller's unit of work. */
export function queuePasswordResetMail(em: EntityManager, config: Config, user: IUser): void {
  const link = createPasswordLink(em, config, user, passwordResetTokenLifetimeMs);
  enqueueMail(em, passwordResetMail(user.email, displayName(user), link, passwordResetTokenLifetimeMs / 60_000));
}
