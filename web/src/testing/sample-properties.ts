import type { PublicProperty } from '@everest/core/contract';
import { properties as propertyFixtures } from '@everest/fixtures';

/**
 * For tests: the seeded properties as GET /api/properties answers them (every property that is
 * not inactive), so that the pure logic is checked against the same data the pages show.
 */
export function seededPublicProperties(): PublicProperty[] {
  return propertyFixtures
    .filter((p) => p.status !== 'inactive')
    .map((p, index) => ({
      id: index + 1,
      name: p.name,
      image: `/media/${p.image}`,
      imageVariants: null,
      type: p.type,
      status: p.status,
      address: p.address,
      city: p.city,
      state: p.state,
      zipCode: p.zipCode,
      phone: p.phone ?? null,
      website: p.website ?? null,
      latitude: p.latitude ?? null,
      longitude: p.longitude ?? null,
    }));
}

let nextId = 1000;

/** For tests: a property with plausible defaults and the fields a case cares about. */
export function sampleProperty(fields: Partial<PublicProperty> = {}): PublicProperty {
  nextId += 1;
  return {
    id: nextId,
    name: `Property ${nextId}`,
    image: null,
    imageVariants: null,
    type: 'residential',
    status: 'active',
    address: '1 Main St.',
    city: 'Phoenix',
    state: 'AZ',
    zipCode: '85001',
    phone: null,
    website: null,
    latitude: '33.5',
    longitude: '-112.0',
    ...fields,
  };
}
