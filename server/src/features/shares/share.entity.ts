import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { personalScopes, propertyScopes } from '@everest/core/contract';
import type { DocumentCategory } from '@everest/core/domain';
import { Property } from '../properties/property.entity';
import { User } from '../users/user.entity';

/**
 * What an investor (the owner) lets another account (the delegate) read. Whether it is
 * live is decided at each read (document-access/document-policy.ts); revoking or ending it only sets
 * `revokedAt`, so the history stays. At most one share per owner and delegate is not revoked
 * (migration 20261127200000's partial index).
 */
export const Share = defineEntity({
  name: 'Share',
  tableName: 'shares',
  uniques: [
    {
      name: 'shares_live_unique',
      expression: 'create unique index "shares_live_unique" on "shares" ("owner_id", "delegate_id") where "revoked_at" is null',
    },
  ],
  properties: {
    id: p.integer().primary(),
    owner: () => p.manyToOne(User).deleteRule('cascade').index(),
    delegate: () => p.manyToOne(User).deleteRule('cascade').index(),
    personalScope: p.enum([...personalScopes]),
    /** With personalScope 'categories': the categories shared. */
    categories: p.array<DocumentCategory>().default([]),
    propertyScope: p.enum([...propertyScopes]),
    /** The last day the delegate may read, in America/Los_Angeles; null for no end. */
    endsOn: p.date().nullable(),
    notify: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
    /** The owner who revoked it, or the administrator who ended it. */
    revokedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
  },
});
export type IShare = InferEntity<typeof Share>;

/** The properties of a share whose propertyScope is 'properties'; gone with their property. */
export const ShareProperty = defineEntity({
  name: 'ShareProperty',
  tableName: 'share_properties',
  uniques: [{ properties: ['share', 'property'] }],
  properties: {
    id: p.integer().primary(),
    share: () => p.manyToOne(Share).deleteRule('cascade'),
    property: () => p.manyToOne(Property).deleteRule('cascade').index(),
  },
});
export type IShareProperty = InferEntity<typeof ShareProperty>;
