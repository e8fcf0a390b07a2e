import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { ImageVariant } from '@everest/core/contract';
import { propertyStatuses, propertyTypes } from '@everest/core/domain';

export const Property = defineEntity({
  name: 'Property',
  tableName: 'properties',
  // Names are unique whatever their letter case ('Oak Manor' and 'OAK MANOR' are one property to
  // an investor); the migration creates this index, the plain unique constraint stays beside it.
  uniques: [
    {
      name: 'properties_name_lower_unique',
      expression: 'create unique index "properties_name_lower_unique" on "properties" (lower("name"))',
    },
  ],
  properties: {
    id: p.integer().primary(),
    name: p.string().length(200).unique(),
    type: p.enum([...propertyTypes]).default('residential'),
    status: p.enum([...propertyStatuses]).default('active').index(),
    address: p.string().length(200).default(''),
    city: p.string().length(100).default(''),
    state: p.string().length(50).default(''),
    zipCode: p.string().length(20).default(''),
    phone: p.string().length(40).nullable(),
    website: p.string().length(500).nullable(),
    // numeric(9,6) keeps the 6 decimals of the geocoder exactly; the API carries them as strings.
    latitude: p.decimal('string').precision(9).scale(6).nullable(),
    longitude: p.decimal('string').precision(9).scale(6).nullable(),
    investorRelations: p.boolean().default(true),
    /** Public URL of the photo (`/media/<sha256>.<ext>`), or null. */
    image: p.string().length(500).nullable(),
    /** The web-sized copies of an uploaded photo, narrowest first; null for a photo without any. */
    imageVariants: p.json<ImageVariant[]>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IProperty = InferEntity<typeof Property>;
