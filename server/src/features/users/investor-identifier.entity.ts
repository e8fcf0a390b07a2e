import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * An identifier an administrator added to an investor, besides their full name and entity, for
 * content matching to find them by in a K-1 ("Smith Family Trust dtd 3/1/2001", "XXX-XX-1234").
 * `normalized` is core's identifierKey: unique, so that no two accounts ever share an added
 * identifier, even when two administrators save one at the same moment.
 */
export const InvestorIdentifier = defineEntity({
  name: 'InvestorIdentifier',
  tableName: 'investor_identifiers',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    /** As the administrator typed it (trimmed), for the list and for sentences. */
    identifier: p.string().length(200),
    normalized: p.string().length(200).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IInvestorIdentifier = InferEntity<typeof InvestorIdentifier>;
