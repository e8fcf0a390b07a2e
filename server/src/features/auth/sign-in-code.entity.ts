import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/**
 * A one-time code e-mailed to an account that is being guessed at (sign-in-code.ts). Only its
 * keyed hash is stored; it works once, for ten minutes, and a few wrong tries end it.
 */
export const SignInCode = defineEntity({
  name: 'SignInCode',
  tableName: 'sign_in_codes',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    codeHash: p.string().length(64),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    failedAttempts: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ISignInCode = InferEntity<typeof SignInCode>;
