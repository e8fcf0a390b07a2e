import { describe, expect, it } from 'vitest';
import type { PublicProperty } from '@everest/core/contract';
import { carouselProperties } from './portfolio';

let nextId = 1;
const property = (over: Partial<PublicProperty>): PublicProperty => ({
  id: nextId++,
  name: 'P',
  image: null,
  imageVariants: null,
  type: 'residential',
  status: 'active',
  address: '1 Main St.',
  city: 'Pasadena',
  state: 'CA',
  zipCode: '91101',
  phone: null,
  website: null,
  latitude: null,
  longitude: null,
  ...over,
});

const list = [
  property({ name: 'Sold One', type: 'residential', status: 'sold' }),
  property({ name: 'Zeta', type: 'residential' }),
  property({ name: 'Alpha', type: 'residential' }),
  property({ name: 'Store B', type: 'self-storage' }),
  property({ name: 'Mall', type: 'retail' }),
  property({ name: 'HQ', type: 'headquarters' }),
  property({ name: 'Mixed', type: 'mixed-use' }),
  property({ name: 'Old Store', type: 'self-storage', status: 'sold' }),
];

describe('carouselProperties', () => {
  it('shows the active investments in the order of the list, grouped and by name, without the headquarters', () => {
    expect(carouselProperties(list).map((p) => p.name)).toEqual(['Alpha', 'Zeta', 'Store B', 'Mall', 'Mixed']);
  });
});
