import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { roles } from '@everest/core/domain';

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
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
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IUser = InferEntity<typeof User>;
