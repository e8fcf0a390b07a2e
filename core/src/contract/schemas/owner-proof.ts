import { z } from 'zod';
import { fieldMax } from '../../domain/limits';
import { portalMessages } from '../../domain/messages';

// A session alone is not the account's owner. Changing the e-mail or the
// password, and adding or removing a second step, each asks again for something only the owner
// has: the current password, or a current second-step code.

/** The refusal of an empty code, also what the portal's forms say before sending one. */
export const enterSecondStepCode = 'Please enter the code from your authenticator app or a backup code.';

/** A 6-digit TOTP code or a backup code; spaces and dashes people type are ignored. */
export const secondStepCode = z
  .string({ error: enterSecondStepCode })
  .max(40, enterSecondStepCode)
  .transform((value) => value.replace(/[\s-]/g, '').toLowerCase())
  .pipe(z.string().min(1, enterSecondStepCode));

/**
 * The fields of a proof, spread into the body of each call that needs one. Either will do; the
 * server answers 'Please enter your current password.' when both are missing.
 */
export const ownerProofFields = {
  currentPassword: z.string({ error: portalMessages.enterCurrentPassword }).max(fieldMax.password).optional(),
  code: secondStepCode.optional(),
};
export const ownerProof = z.object(ownerProofFields);
export type OwnerProof = z.infer<typeof ownerProof>;
