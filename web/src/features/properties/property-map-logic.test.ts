// @vitest-environment node
// Pure logic over the seeded data: the fixtures main entry resolves file paths, so Node.
import { describe, expect, it } from 'vitest';
import {
  coordinatesOf,
  groupByState,
  initialMapView,
  mapViewFor,
  markerKindOf,
  matchesMapFilter,
  placedProperties,
  propertiesForMapFilter,
  propertyMapFilterCounts,
  propertyMapFilters,
} from './property-map-logic';
import { sampleProperty, seededPublicProperties } from '../../testing/sample-properties';

const seeded = seededPublicProperties();
const namesOf = (filter: Parameters<typeof propertiesForMapFilter>[1]) =>
  propertiesForMapFilter(seeded, filter).map((p) => p.name);

describe('map filters', () => {
  it('All Active shows the active properties plus the headquarters', () => {
    const hq = sampleProperty({ type: 'headquarters', status: 'sold' });
    expect(matchesMapFilter(hq, 'all-active')).toBe(true);
    expect(matchesMapFilter(sampleProperty({ type: 'mixed-use' }), 'all-active')).toBe(true);
    expect(matchesMapFilter(sampleProperty({ status: 'sold' }), 'all-active')).toBe(false);
    expect(namesOf('all-active')).toContain('Everest Properties Headquarters');
  });

  it('a type filter shows that type with status active', () => {
    expect(namesOf('residential')).not.toContain('Canyon Crest Apartments');
    expect(namesOf('residential')).toContain('Aspen Ridge');
    expect(propertiesForMapFilter(seeded, 'retail').every((p) => p.type === 'retail' && p.status === 'active')).toBe(true);
  });

  it('HQ shows type headquarters, Sold shows status sold', () => {
    expect(namesOf('headquarters')).toEqual(['Everest Properties Headquarters']);
    expect(namesOf('sold')).toEqual([
      'Canyon Crest Apartments',
      'Fig Garden Court',
      'Summit Self Storage Glendale',
      'Union Square Lofts',
      'Wasatch Pointe',
    ]);
  });

  it('never shows an inactive property, whatever the filter', () => {
    const inactive = sampleProperty({ type: 'headquarters', status: 'inactive' });
    for (const filter of propertyMapFilters) expect(matchesMapFilter(inactive, filter)).toBe(false);
  });

  it('counts what each filter shows', () => {
    const counts = propertyMapFilterCounts(seeded);
    for (const filter of propertyMapFilters) expect(counts[filter]).toBe(namesOf(filter).length);
    expect(counts).toEqual({
      'all-active': 26,
      residential: 12,
      'self-storage': 7,
      retail: 5,
      headquarters: 1,
      sold: 5,
    });
  });
});

describe('markerKindOf', () => {
  it('colours by type, sold first, mixed-use and other alike', () => {
    expect(markerKindOf({ type: 'residential', status: 'active' })).toBe('residential');
    expect(markerKindOf({ type: 'self-storage', status: 'active' })).toBe('self-storage');
    expect(markerKindOf({ type: 'retail', status: 'active' })).toBe('retail');
    expect(markerKindOf({ type: 'headquarters', status: 'active' })).toBe('headquarters');
    expect(markerKindOf({ type: 'retail', status: 'sold' })).toBe('sold');
    expect(markerKindOf({ type: 'mixed-use', status: 'active' })).toBe('other');
    expect(markerKindOf({ type: 'other', status: 'active' })).toBe('other');
  });
});

describe('coordinatesOf', () => {
  it('parses the strings of the API', () => {
    expect(coordinatesOf({ latitude: '33.508910', longitude: '-112.030650' })).toEqual([33.50891, -112.03065]);
  });

  it('places nothing without both coordinates or with a value off the globe', () => {
    expect(coordinatesOf({ latitude: null, longitude: '-112' })).toBeNull();
    expect(coordinatesOf({ latitude: '33', longitude: '' })).toBeNull();
    expect(coordinatesOf({ latitude: 'north', longitude: '-112' })).toBeNull();
    expect(coordinatesOf({ latitude: '91', longitude: '-112' })).toBeNull();
    expect(coordinatesOf({ latitude: '33', longitude: '-181' })).toBeNull();
  });

  it('skips the seeded properties that have no coordinates', () => {
    const placed = placedProperties(propertiesForMapFilter(seeded, 'all-active')).map((p) => p.property.name);
    expect(placed).not.toContain('Cedar Hollow');
    expect(placed).not.toContain('Summit Self Storage Reno');
    expect(placed).not.toContain('Riverview Commons');
    expect(placed).toHaveLength(26 - 3);
  });
});

describe('mapViewFor', () => {
  it('keeps the starting view over the central US when nothing is placed', () => {
    expect(mapViewFor([])).toEqual({ kind: 'centre', center: [40, -98], zoom: 4 });
    expect(initialMapView).toEqual({ kind: 'centre', center: [40, -98], zoom: 4 });
  });

  it('zooms to 10 on a single property', () => {
    expect(mapViewFor([[34.146, -118.145]])).toEqual({ kind: 'centre', center: [34.146, -118.145], zoom: 10 });
  });

  it('treats several properties on one spot as one', () => {
    expect(mapViewFor([[34, -118], [34, -118]])).toEqual({ kind: 'centre', center: [34, -118], zoom: 10 });
  });

  it('fits several properties with 20 px padding', () => {
    expect(mapViewFor([[33, -112], [41, -96], [35, -120]])).toEqual({
      kind: 'bounds',
      bounds: [
        [33, -120],
        [41, -96],
      ],
      paddingPx: 20,
    });
  });
});

describe('groupByState', () => {
  it('sorts states alphabetically and the properties of each by name', () => {
    const groups = groupByState(propertiesForMapFilter(seeded, 'all-active'));
    const states = groups.map((g) => g.state);
    expect(states).toEqual([...states].sort());
    expect(groups[0]).toMatchObject({ state: 'AZ' });
    for (const group of groups) {
      const names = group.properties.map((p) => p.name);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    }
    expect(groups.reduce((sum, g) => sum + g.properties.length, 0)).toBe(26);
  });

  it('counts a state written in another case as the same state', () => {
    const groups = groupByState([
      sampleProperty({ name: 'B', state: 'ca' }),
      sampleProperty({ name: 'A', state: 'CA ' }),
      sampleProperty({ name: 'C', state: 'AZ' }),
    ]);
    expect(groups.map((g) => [g.state, g.properties.map((p) => p.name)])).toEqual([
      ['AZ', ['C']],
      ['CA', ['A', 'B']],
    ]);
  });
});
