import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { displayName } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import type { CaptchaProvider } from '../captcha/captcha-provider';
import { enqueueMail } from '../mail/outbox';
import { rateLimiter, tooManyRequests, type Budget, type RateLimit } from '../rate-limit/rate-limiter';
import type { IUser } from '../users/user.entity';
import { accountGuessedMail, wrongSecondStepMail } from './auth-mail';

/*
 * Failed checks of a secret (passwords, second-step codes, current passwords) are counted so that
 * a guesser is stopped and a stranger cannot lock the owner out:
 *
 * - per account and address: a hard limit. The guesser at one address is stopped; the owner
 *   elsewhere is not affected.
 * - per address, across accounts: a budget that grows back one attempt a minute, so that an
 *   office behind one address, or a sync retrying a stale password, is slowed for a minute at
 *   most rather than locked out for a whole window.
 * - per account, across addresses: past the limit, a sign-in needs a proof of work (the captcha
 *   the contact form uses) before its password is checked. Never a refusal of the right password
 *   from an address of its own; the owner is told by e-mail, once a day at most.
 * - per account, a ceiling of 100 failed passwords in an hour (NIST 800-63B 5.2.2, ASVS 2.2.1):
 *   past it the right password alone no longer signs in, the password and a code e-mailed to the
 *   account do, and a wrong password gets the same answer as the right one without the code.
 * - wrong second-step codes at sign-in, which only someone with the password can try: a few per
 *   sign-in (then the password again), the address limits above, and an account-wide ceiling past
 *   which the password step asks for the e-mailed code too. Never a refusal of the owner's right
 *   code; the owner is told by e-mail that their password was used with wrong codes.
 * - current passwords and codes given as an owner proof in a session keep a hard limit per
 *   account of their own: only a session reaches them, so no stranger can spend it.
 *
 * Every count is of a sliding window (rate-limiter.ts): no edge of a window doubles a limit.
 *
 * Attempts are counted before the secret is checked, so a burst of concurrent guesses cannot all
 * pass a look at the counters; a right answer gives its places back (signing in never uses up a
 * budget), a refused one checked nothing and gives them back at once.
 */

/** Per account and address: a hard limit. */
export const pairFailureLimit: RateLimit = { limit: 10, windowMs: 15 * 60_000 };
/** Per address, whatever the accounts: 20 at once, then one more each minute. */
export const addressFailureBudget: Budget = { burst: 20, refillMs: 60_000 };
/** Per account, from any address: past it, a proof of work first. */
export const accountFailureLimit: RateLimit = { limit: 10, windowMs: 15 * 60_000 };
/** Per account, for owner proofs in a session (current passwords, codes): a hard limit. */
export const proofFailureLimit: RateLimit = { limit: 10, windowMs: 15 * 60_000 };
/** Per account, failed passwords from anywhere: past it, an e-mailed code as well as the password. */
export const accountGuessCeiling: RateLimit = { limit: 100, windowMs: 60 * 60_000 };
/** Wrong second-step codes of one sign-in: then its password must be given again. */
export const codesPerSignIn = 3;
/** Per account, wrong second-step codes at sign-in from anywhere: past it, the e-mailed code at the password step. */
export const signInCodeCeiling: RateLimit = { limit: 10, windowMs: 15 * 60_000 };
/** At most one e-mail a day telling the owner their password was used with wrong codes. */
export const wrongCodesNoticeLimit: RateLimit = { limit: 1, windowMs: 24 * 60 * 60_000 };
/** Wrong codes of an account within the ceiling's window that make it worth telling the owner. */
export const wrongCodesNoticeAt = 3;
/** At most one e-mail a day to the owner of an account being guessed. */
export const guessedNoticeLimit: RateLimit = { limit: 1, windowMs: 24 * 60 * 60_000 };

export const tooManySignInFailures = 'Too many failed sign-in attempts.';
export const signInCheckNeeded =
  'Many sign-ins to this account have failed lately, so we ask for a short automatic check first. Please complete it and sign in again.';
const checkRefused = 'The check did not pass, has expired or was already used. Please complete it again and sign in.';

/**
 * A counter's key as written: readable, or its kind and a hash when too long for the column (an
 * e-mail of 254 characters beside an address, or whatever a trusted proxy passed on as one).
 */
const keyOf = (kind: string, value: string) => {
  const key = `${kind}:${value}`;
  return key.length <= 300 ? key : `${kind}:sha256:${createHash('sha256').update(value).digest('hex')}`;
};

const keys = {
  pair: (email: string, address: string) => keyOf('login-failure:pair', `${email}|${address}`),
  address: (address: string) => keyOf('login-failure:ip', address),
  account: (email: string) => keyOf('login-failure:email', email),
  proof: (email: string) => keyOf('proof-failure:email', email),
  notice: (email: string) => keyOf('login-guessed-notice', email),
  ceiling: (email: string) => keyOf('login-failure:account-hour', email),
  signInCode: (email: string) => keyOf('sign-in-code-failure:email', email),
  codesNotice: (email: string) => keyOf('wrong-codes-notice', email),
};

type Undo = () => Promise<void>;

/** Counts an attempt on the account-and-address limit and the address's budget, or refuses it (429). */
async function countAtAddress(em: EntityManager, email: string, address: string, now: number): Promise<Undo> {
  const pairKey = keys.pair(email, address);
  const pair = await rateLimiter.hit(em, pairKey, pairFailureLimit, now);
  const releasePair = () => rateLimiter.release(em, pairKey, pairFailureLimit, now);
  if (pair.count > pairFailureLimit.limit) {
    await releasePair();
    throw tooManyRequests(tooManySignInFailures, pair.retryAfterSeconds);
  }
  const budget = await rateLimiter.take(em, keys.address(address), addressFailureBudget, now);
  if (!budget.allowed) {
    await releasePair();
    throw tooManyRequests(tooManySignInFailures, budget.retryAfterSeconds);
  }
  // Counters of past windows are useless; whoever writes them clears them now and then.
  if (Math.random() < 0.01) {
    await rateLimiter.prune(em);
    await rateLimiter.pruneBudgets(em);
  }
  return async () => {
    await releasePair();
    await rateLimiter.giveBack(em, keys.address(address), addressFailureBudget);
  };
}

/** A counted attempt: `succeeded` gives its places back; a failure leaves them counted. */
export interface CountedAttempt {
  succeeded: () => Promise<void>;
}

export interface SignInAttempt extends CountedAttempt {
  /** The password was wrong: tells the owner, once a day at most, when the account is being guessed. */
  failed: (user: IUser | null) => Promise<void>;
  /**
   * The account is past its guess ceiling (failed passwords this hour, or wrong second-step codes
   * lately): the password alone does not sign in, whatever it is, without the e-mailed code.
   */
  needsEmailedCode: boolean;
}

/**
 * Counts a password sign-in before its password is checked: refused (429) past the account's
 * limit at this address or the address's budget; past the account's limit from anywhere, let
 * through only with a solved captcha (`captcha`), spent here whatever the password turns out to be.
 */
export async function countSignIn(
  em: EntityManager,
  captchaProvider: CaptchaProvider,
  attempt: { email: string; address: string; captcha: string | undefined },
): Promise<SignInAttempt> {
  const now = Date.now();
  const { email, address } = attempt;
  const undoAtAddress = await countAtAddress(em, email, address, now);
  const accountKey = keys.account(email);
  const account = await rateLimiter.hit(em, accountKey, accountFailureLimit, now);
  const ceilingKey = keys.ceiling(email);
  const ceiling = await rateLimiter.hit(em, ceilingKey, accountGuessCeiling, now);
  const codes = await rateLimiter.peek(em, keys.signInCode(email), signInCodeCeiling, now);
  const undo = async () => {
    await undoAtAddress();
    await rateLimiter.release(em, accountKey, accountFailureLimit, now);
    await rateLimiter.release(em, ceilingKey, accountGuessCeiling, now);
  };
  if (account.count > accountFailureLimit.limit) {
    if (!attempt.captcha) {
      await undo();
      throw new HttpError(429, signInCheckNeeded, {}, { captchaRequired: true });
    }
    try {
      const pass = await captchaProvider.verify({ token: attempt.captcha, remoteIp: address });
      await pass.redeem(em);
    } catch (error) {
      await undo();
      // The provider's sentences speak of the contact form; a provider that is down stays a 503.
      throw error instanceof HttpError && error.status === 400 ? new HttpError(400, checkRefused, {}, { captchaRequired: true }) : error;
    }
  }
  return {
    succeeded: undo,
    needsEmailedCode: ceiling.count > accountGuessCeiling.limit || codes.count >= signInCodeCeiling.limit,
    failed: async (user) => {
      if (account.count < accountFailureLimit.limit || !user?.isActive) return;
      const notice = await rateLimiter.hit(em, keys.notice(email), guessedNoticeLimit, now);
      if (notice.count !== 1) return;
      enqueueMail(em, accountGuessedMail(user.email, displayName(user)));
      await em.flush();
    },
  };
}

/**
 * Counts a check of a second-step code or of the current password, for an account whose password
 * was given or whose session is open: refused (429) past the account's limit at this address, the
 * address's budget, or the account's own limit for such checks.
 */
export async function countProof(em: EntityManager, email: string, address: string): Promise<CountedAttempt> {
  const now = Date.now();
  const undoAtAddress = await countAtAddress(em, email, address, now);
  const proofKey = keys.proof(email);
  const proof = await rateLimiter.hit(em, proofKey, proofFailureLimit, now);
  const undo = async () => {
    await undoAtAddress();
    await rateLimiter.release(em, proofKey, proofFailureLimit, now);
  };
  if (proof.count > proofFailureLimit.limit) {
    await undo();
    throw tooManyRequests(tooManySignInFailures, proof.retryAfterSeconds);
  }
  return { succeeded: undo };
}

export interface CodeAttempt extends CountedAttempt {
  /** The code was wrong: counted for the account, and its owner told, once a day at most. */
  failed: (user: IUser) => Promise<void>;
}

/**
 * Counts a second-step code of a sign-in (its password was right) before it is checked: refused
 * (429) past the account's limit at this address or the address's budget, never account-wide. A
 * wrong one counts on the account's ceiling, past which the password step asks for the e-mailed
 * code as well; a few of them tell the owner that their password is known.
 */
export async function countSignInCode(em: EntityManager, email: string, address: string): Promise<CodeAttempt> {
  const now = Date.now();
  const undoAtAddress = await countAtAddress(em, email, address, now);
  return {
    succeeded: undoAtAddress,
    failed: async (user) => {
      const codes = await rateLimiter.hit(em, keys.signInCode(email), signInCodeCeiling, now);
      if (codes.count < wrongCodesNoticeAt) return;
      const notice = await rateLimiter.hit(em, keys.codesNotice(email), wrongCodesNoticeLimit, now);
      if (notice.count !== 1) return;
      enqueueMail(em, wrongSecondStepMail(user.email, displayName(user)));
      await em.flush();
    },
  };
}

/** A check that named no account (a made-up sign-in challenge): it spends the address's budget. */
export async function countAddressFailure(em: EntityManager, address: string): Promise<void> {
  const budget = await rateLimiter.take(em, keys.address(address), addressFailureBudget);
  if (!budget.allowed) throw tooManyRequests(tooManySignInFailures, budget.retryAfterSeconds);
}

/**
 * Counts an attempt on every key before its secret is checked (reset and set-password links),
 * and refuses it with 429 once any key is over the limit. A counted attempt stays counted as a
 * failure unless the caller gives it back with the answered `release`; a refused attempt checked
 * nothing and gives its place back at once.
 */
export async function countAttempt(
  em: EntityManager,
  keyList: string[],
  limit: RateLimit,
  message: string,
): Promise<{ release: () => Promise<void> }> {
  const now = Date.now();
  const states = [];
  for (const key of keyList) states.push(await rateLimiter.hit(em, key, limit, now));
  const release = async () => {
    for (const key of keyList) await rateLimiter.release(em, key, limit, now);
  };
  const over = states.filter((s) => s.count > limit.limit);
  if (over.length > 0) {
    await release();
    throw tooManyRequests(message, Math.max(...over.map((s) => s.retryAfterSeconds)));
  }
  if (Math.random() < 0.01) await rateLimiter.prune(em);
  return { release };
}
