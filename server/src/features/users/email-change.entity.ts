import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * A change of an account's e-mail address asked for in Manage Profile: it takes effect
 * only when the link sent to the new address is opened (`confirmTokenHash`), and the link sent at
 * once to the old address puts that address back (`undoTokenHash`). Tokens are stored only as
 * their SHA-256, each works once. Rows are kept after use: they are the account's record of
 * who asked for which address, and when it was confirmed, cancelled or undone.
 */
export const EmailChange = defineEntity({
  name: 'EmailChange',
  tableName: 'email_changes',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    oldEmail: p.string().length(254),
    newEmail: p.string().length(254),
    confirmTokenHash: p.string().length(64).unique(),
    undoTokenHash: p.string().length(64).unique(),
    confirmExpiresAt: p.datetime(),
    undoExpiresAt: p.datetime(),
    /** Set when the new address took effect. */
    confirmedAt: p.datetime().nullable(),
    /** Set when the owner withdrew it, a later request replaced it, or an undo ended it. */
    cancelledAt: p.datetime().nullable(),
    /** Set when the old address's link was used. */
    undoneAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IEmailChange = InferEntity<typeof EmailChange>;
