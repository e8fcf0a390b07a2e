import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { roles } from '@everest/core/domain';

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  // The administrators' user list (migration 20261125000000): a trigram index for its search and
  // a B-tree in its order, declared here so that a generated migration keeps them.
  indexes: [
    { name: 'users_search_text_index', expression: 'create index "users_search_text_index" on "users" using gin ("search_text" gin_trgm_ops)' },
    {
      name: 'users_admin_order_index',
      expression: `create index "users_admin_order_index" on "users" (lower(coalesce(nullif(last_name, ''), nullif(first_name, ''), entity)), lower(first_name), email, id)`,
    },
  ],
  properties: {
    id: p.integer().primary(),
    // Stored lower-cased so that uniqueness and sign-in ignore case.
    email: p.string().length(254).unique(),
    passwordHash: p.string().hidden(),
    firstName: p.string().length(100).default(''),
    lastName: p.string().length(100).default(''),
    entity: p.string().length(200).default(''),
    streetAddress: p.string().length(200).default(''),
    city: p.string().length(100).default(''),
    state: p.string().length(50).default(''),
    zipCode: p.string().length(20).default(''),
    role: p.enum([...roles]).default('user'),
    isActive: p.boolean().default(true),
    lastLoginAt: p.datetime().nullable(),
    // The sign-in before the last one: what the portal shows, so that an investor can notice a
    // sign-in that was not theirs.
    previousLoginAt: p.datetime().nullable(),
    // Raised on a password change, reset, deactivation or role change: tokens that carry an
    // older value stop working on their next request.
    tokenVersion: p.integer().default(0),
    // Kept by the database's triggers (migration 20261127170000): when the last welcome link was
    // made, and when the owner last chose a password. The user list's Status reads them.
    invitedAt: p.datetime().nullable(),
    passwordSetAt: p.datetime().nullable(),
    // What the administrators' search looks in, lower-cased by PostgreSQL when the row is written.
    searchText: p
      .text()
      .generated("(lower(first_name || ' ' || last_name || ' ' || entity || ' ' || email)) stored")
      // Nullable as PostgreSQL made it (a generated column carries no NOT NULL), so nobody writes it.
      .nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IUser = InferEntity<typeof User>;
