import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Property } from '../properties/property.entity';
import { User } from './user.entity';

/** Which investor-relations properties' documents a user may read. */
export const PropertyAccess = defineEntity({
  name: 'PropertyAccess',
  tableName: 'property_access',
  uniques: [{ properties: ['user', 'property'] }],
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    property: () => p.manyToOne(Property).deleteRule('cascade').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IPropertyAccess = InferEntity<typeof PropertyAccess>;
