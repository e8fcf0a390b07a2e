import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/**
 * A signed-in session as its owner sees it in Manage Profile: written at sign-in and
 * by the session check (at most once a minute per session), forgotten by housekeeping once its
 * token has expired. It grants nothing: the token does, and ended_sessions and the user's token
 * version end it.
 */
export const SignedInSession = defineEntity({
  name: 'SignedInSession',
  tableName: 'sessions',
  properties: {
    /** The token's session id (`sid`), as ended_sessions names it. */
    sessionId: p.string().length(32).primary(),
    /** The name the list and `sessions/end` use: random, so the list tells nothing of any token. */
    publicId: p.string().length(22).unique(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    /** users.token_version the token carries: a newer one on the user ends the session. */
    tokenVersion: p.integer(),
    /** 'Chrome on Windows', from the User-Agent of its last recorded use; '' until its first. */
    device: p.string().length(100).default(''),
    /** The client address of its last recorded use; '' until its first. */
    clientAddress: p.string().length(64).default(''),
    firstSeenAt: p.datetime(),
    lastUsedAt: p.datetime(),
    expiresAt: p.datetime().index(),
  },
});
export type ISignedInSession = InferEntity<typeof SignedInSession>;
