import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../../users/user.entity';

/**
 * A user's authenticator app (TOTP, RFC 6238). The secret is stored encrypted (totp-secret.ts)
 * and answered only once, while it is being set up. `totpLastTimeStep` is the last 30-second
 * step a code was accepted for: a code works once, and never an older one after it.
 */
export const SecondStep = defineEntity({
  name: 'SecondStep',
  tableName: 'second_steps',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').unique(),
    /** Set only once the first code confirmed it; null while a set-up is pending. */
    totpSecret: p.text().nullable(),
    /** A secret shown to the user that no code has confirmed yet. */
    totpPendingSecret: p.text().nullable(),
    totpEnabledAt: p.datetime().nullable(),
    totpLastTimeStep: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type ISecondStep = InferEntity<typeof SecondStep>;

/** A single-use backup code, kept as its keyed hash only (second-step.service.ts). */
export const BackupCode = defineEntity({
  name: 'BackupCode',
  tableName: 'backup_codes',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    codeHash: p.string().length(64),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IBackupCode = InferEntity<typeof BackupCode>;

/**
 * The `mfaToken` a right password earns an account with a second step: stored as its SHA-256,
 * good for a few minutes and for one successful verify call.
 */
export const SecondStepChallenge = defineEntity({
  name: 'SecondStepChallenge',
  tableName: 'second_step_challenges',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    /** Wrong codes given for this sign-in: a few end it, and the password must be given again. */
    failedCodes: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ISecondStepChallenge = InferEntity<typeof SecondStepChallenge>;
