import type { EntityManager } from '@mikro-orm/postgresql';
import type { OwnerProof } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import type { Config } from '../../config';
import { HttpError } from '../../http/errors';
import type { IUser } from '../users/user.entity';
import { countProof } from './login-attempts';
import { verifyPassword } from './password-hash';
import { proveSecondStepCode } from './second-step/second-step-codes';

/** The sentence for a wrong current password, unless the call has its own (change-password's is the spec's). */
export const wrongPassword = 'That password is not correct.';

/**
 * Checks that whoever holds the session is the account's owner, before a
 * change a stolen session must not make: the e-mail, the password, a second step. The current
 * password, or a current second-step code, which is then used up. Wrong answers count with
 * failed sign-ins (per account and address), so a session cannot be used to guess without limit.
 */
export async function proveOwner(
  em: EntityManager,
  config: Config,
  user: IUser,
  proof: OwnerProof,
  address: string,
  refusal = wrongPassword,
): Promise<void> {
  if (proof.currentPassword) {
    const attempt = await countProof(em, user.email, address);
    if (!(await verifyPassword(user.passwordHash, proof.currentPassword))) throw new HttpError(400, refusal);
    await attempt.succeeded();
    return;
  }
  if (proof.code) return proveSecondStepCode(em, config, user, proof.code, address);
  throw new HttpError(400, portalMessages.enterCurrentPassword);
}
