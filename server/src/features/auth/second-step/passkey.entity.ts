import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../../users/user.entity';

/**
 * A registered passkey (a WebAuthn credential): its public key (COSE), and the signature
 * counter its last sign-in reported, so that a cloned authenticator whose counter lags is
 * refused. Names are the user's own ("Work laptop").
 */
export const Passkey = defineEntity({
  name: 'Passkey',
  tableName: 'passkeys',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    name: p.string().length(60),
    /** base64url, as WebAuthn's JSON forms carry it. */
    credentialId: p.string().length(1400).unique(),
    publicKey: p.type('blob').columnType('bytea'),
    counter: p.bigint('number').default(0),
    transports: p.array().default([]),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
  },
});
export type IPasskey = InferEntity<typeof Passkey>;

/** What a passkey challenge was made for: it is accepted only for that ceremony. */
export type PasskeyPurpose = 'register' | 'sign-in';

/**
 * A WebAuthn challenge the server handed out: used up by the first answer that names it (right
 * or wrong), and refused after `expiresAt`. In the database, so that any instance can check it.
 */
export const PasskeyChallenge = defineEntity({
  name: 'PasskeyChallenge',
  tableName: 'passkey_challenges',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    purpose: p.string().length(20).$type<PasskeyPurpose>(),
    challenge: p.string().length(100).unique(),
    expiresAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IPasskeyChallenge = InferEntity<typeof PasskeyChallenge>;
