import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  LoginAnswer,
  LoginVerifyBody,
  PasskeyRequestOptionsAnswer,
  PasskeySignInOptionsBody,
  SecondStepMethod,
  SecondStepRequiredAnswer,
} from '@everest/core/contract';
import { displayName } from '@everest/core/domain';
import type { Config } from '../../../config';
import { HttpError } from '../../../http/errors';
import { enqueueMail } from '../../mail/outbox';
import { User, type IUser } from '../../users/user.entity';
import { backupCodeUsedMail } from '../auth-mail';
import { codesPerSignIn, countAddressFailure, countSignInCode } from '../login-attempts';
import { startSession } from '../session';
import { requestOptions, usePasskey, userPasskeys } from './passkeys';
import { SecondStepChallenge } from './second-step.entity';
import { backupCodesLeft, refusedCode, secondSteps, useCode } from './second-step-codes';
import { hashChallengeToken } from './second-step-secrets';

// The sign-in's second step: the challenge the password answers with, and the code, backup code
// or passkey that completes it. Setting a second step up or removing it is second-step.service.ts.

/** How long the password alone keeps a sign-in open for its second step. */
export const challengeLifetimeMs = 5 * 60_000;

const signInAgain = 'Your sign-in has expired. Please sign in again.';
const wrongPasskey = 'That passkey was not accepted. Please try again.';
/** A few wrong codes end a sign-in: the next tries need the password again. */
const tooManyWrongCodes = 'That was the last try for this sign-in: please sign in with your password again.';

/**
 * For an account with a second step, the challenge that replaces the session in the login
 * answer; null for an account without one, which signs in as it always did.
 */
export async function secondStepChallenge(em: EntityManager, user: IUser): Promise<SecondStepRequiredAnswer | null> {
  const steps = await secondSteps(em, user.id);
  if (!steps.any) return null;
  const mfaToken = randomBytes(32).toString('base64url');
  em.create(SecondStepChallenge, { user, tokenHash: hashChallengeToken(mfaToken), expiresAt: new Date(Date.now() + challengeLifetimeMs) });
  // Challenges that have expired are of no use to anyone; whoever writes one clears them now and then.
  if (Math.random() < 0.01) await em.nativeDelete(SecondStepChallenge, { expiresAt: { $lt: new Date(Date.now() - challengeLifetimeMs) } });
  await em.flush();
  const methods: SecondStepMethod[] = [];
  if (steps.passkeys.length > 0) methods.push('passkey');
  if (steps.totp) methods.push('totp');
  if ((await backupCodesLeft(em, user.id)) > 0) methods.push('backup-code');
  return { mfaRequired: true, mfaToken, methods };
}

/**
 * The second half of a sign-in: a live, unused challenge and a right code answer the session.
 * Wrong codes count with wrong passwords (the account's and the address's failures), and the
 * challenge stays usable for another try until it expires; a right code uses it up.
 */
export async function verifyLogin(em: EntityManager, config: Config, body: LoginVerifyBody, address: string): Promise<LoginAnswer> {
  const { challenge, user } = await liveChallenge(em, body.mfaToken, address);
  const steps = await secondSteps(em, user.id);
  if (!steps.any) throw new HttpError(401, signInAgain);

  const attempt = await countSignInCode(em, user.email, address);
  // A wrong code counts against this sign-in (a few end it) and the account's ceiling.
  const refuse = async (message: string): Promise<never> => {
    await attempt.failed(user);
    const [row] = await em
      .getConnection()
      .execute<{ failed_codes: number }[]>('update second_step_challenges set failed_codes = failed_codes + 1 where id = ? returning failed_codes', [
        challenge.id,
      ]);
    if ((row?.failed_codes ?? 0) >= codesPerSignIn) {
      await em.nativeUpdate(SecondStepChallenge, { id: challenge.id }, { expiresAt: new Date() });
      throw new HttpError(401, `${message} ${tooManyWrongCodes}`);
    }
    throw new HttpError(401, message);
  };
  let method: SecondStepMethod;
  if ('passkey' in body) {
    if (!(await usePasskey(em, config, user.id, body.passkey))) await refuse(wrongPasskey);
    method = 'passkey';
  } else {
    const used = await useCode(em, config, user.id, steps.row, body.code);
    if (used === null || used === 'used') return refuse(refusedCode(used));
    method = used;
  }
  await attempt.succeeded();

  const claimed = await em.nativeUpdate(SecondStepChallenge, { id: challenge.id, usedAt: null }, { usedAt: new Date() });
  if (claimed !== 1) throw new HttpError(401, signInAgain);
  if (method === 'backup-code') enqueueMail(em, backupCodeUsedMail(user.email, displayName(user), await backupCodesLeft(em, user.id)));
  return startSession(em, config, user, { secondStep: true });
}

/** The sign-in waiting for its second step that an `mfaToken` names, and its user. */
async function liveChallenge(em: EntityManager, mfaToken: string, address: string) {
  const challenge = await em.findOne(SecondStepChallenge, { tokenHash: hashChallengeToken(mfaToken), usedAt: null, expiresAt: { $gt: new Date() } });
  const user = challenge && (await em.findOne(User, { id: challenge.user.id, isActive: true }));
  if (!challenge || !user) {
    // A made-up or stale token checks nothing, but a stream of them still counts against the address.
    await countAddressFailure(em, address);
    throw new HttpError(401, signInAgain);
  }
  return { challenge, user };
}

/** A challenge for one of the user's passkeys to sign, valid no longer than the sign-in itself. */
export async function passkeySignInOptions(
  em: EntityManager,
  config: Config,
  body: PasskeySignInOptionsBody,
  address: string,
): Promise<PasskeyRequestOptionsAnswer> {
  const { challenge, user } = await liveChallenge(em, body.mfaToken, address);
  const passkeys = await userPasskeys(em, user.id);
  if (passkeys.length === 0) throw new HttpError(409, 'This account has no passkey. Please use a code instead.');
  return { options: await requestOptions(em, config, user, passkeys, challenge.expiresAt) };
}
