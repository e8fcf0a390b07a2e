import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/**
 * A session its user signed out of: refused on every instance until its token would have
 * expired anyway, then forgotten. Other sessions of the same user are untouched.
 */
export const EndedSession = defineEntity({
  name: 'EndedSession',
  tableName: 'ended_sessions',
  properties: {
    sessionId: p.string().length(32).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    expiresAt: p.datetime(),
  },
});
export type IEndedSession = InferEntity<typeof EndedSession>;
