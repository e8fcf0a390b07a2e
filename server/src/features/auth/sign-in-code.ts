import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { displayName } from '@everest/core/domain';
import type { Config } from '../../config';
import { enqueueMail } from '../mail/outbox';
import type { IUser } from '../users/user.entity';
import { signInCodeMail } from './auth-mail';
import { SignInCode } from './sign-in-code.entity';

/*
 * The e-mailed sign-in code: past an account's guess ceiling the password alone no longer signs
 * in, the password and a code sent to the account's address do. The owner is never locked out
 * (the mailbox is theirs); a stranger with the password still needs the mailbox.
 */

/** How long a code works. */
export const signInCodeLifetimeMs = 10 * 60_000;
/** Wrong tries that end a code: with the password, a few typos; never a search of a million. */
export const signInCodeMaxFailures = 5;
/** A new code at most this often (the last one stands meanwhile), and this many an hour. */
export const signInCodeResendMs = 60_000;
export const signInCodesPerHour = 6;

/** Keyed, so that a copy of the table cannot be searched for the million codes. */
function hashCode(config: Config, userId: number, code: string): string {
  return createHmac('sha256', config.jwtSecret).update(`sign-in-code:${userId}:${code}`).digest('hex');
}

/**
 * E-mails a fresh code to the account (the right password was given without one), unless one
 * went out within the last minute or the hour's codes are spent; earlier codes stop working.
 */
export async function sendSignInCode(em: EntityManager, config: Config, user: IUser): Promise<void> {
  // The account's row is locked: sign-ins at once (a double click, a script) send one code.
  await em.transactional(async (tx) => {
    await tx.execute('select id from users where id = ? for update', [user.id]);
    const now = Date.now();
    const recent = await tx.find(SignInCode, { user: user.id, createdAt: { $gt: new Date(now - 60 * 60_000) } }, { orderBy: { createdAt: 'desc' } });
    const last = recent[0];
    if (recent.length >= signInCodesPerHour) return;
    if (last && !last.usedAt && last.createdAt.getTime() > now - signInCodeResendMs) return;
    await tx.nativeUpdate(SignInCode, { user: user.id, usedAt: null }, { usedAt: new Date(now) });
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    tx.create(SignInCode, { user: user.id, codeHash: hashCode(config, user.id, code), expiresAt: new Date(now + signInCodeLifetimeMs) });
    enqueueMail(tx, signInCodeMail(user.email, displayName(user), code, signInCodeLifetimeMs / 60_000));
  });
}

/**
 * `useSignInCode` for the account whose right password came with the code; for a wrong password
 * (no owner) the same lookup of a row that cannot exist, so that both take as long.
 */
export async function checkSignInCode(em: EntityManager, config: Config, owner: IUser | null, code: string): Promise<boolean> {
  if (owner) return useSignInCode(em, config, owner, code);
  await em.findOne(SignInCode, { user: 0, usedAt: null, expiresAt: { $gt: new Date() }, failedAttempts: { $lt: signInCodeMaxFailures } });
  return false;
}

/**
 * Uses the account's live code if `code` is it (a conditional update: of two racing requests one
 * wins); a wrong one counts against the code, which a few wrong tries end.
 */
export async function useSignInCode(em: EntityManager, config: Config, user: IUser, code: string): Promise<boolean> {
  const live = await em.findOne(
    SignInCode,
    { user: user.id, usedAt: null, expiresAt: { $gt: new Date() }, failedAttempts: { $lt: signInCodeMaxFailures } },
    { orderBy: { id: 'desc' } },
  );
  if (!live) return false;
  const given = Buffer.from(hashCode(config, user.id, code), 'hex');
  if (!timingSafeEqual(given, Buffer.from(live.codeHash, 'hex'))) {
    await em.getConnection().execute('update sign_in_codes set failed_attempts = failed_attempts + 1 where id = ?', [live.id]);
    return false;
  }
  return (await em.nativeUpdate(SignInCode, { id: live.id, usedAt: null }, { usedAt: new Date() })) === 1;
}
