// @vitest-environment node
// Pure logic over the seeded data: the fixtures main entry resolves file paths, so Node.
import { describe, expect, it } from 'vitest';
import {
  isFilterButtonSelected,
  parsePropertyListFilter,
  propertyFilterButtons,
  propertyFilterCounts,
  propertyGroups,
} from './property-list';
import { sampleProperty, seededPublicProperties } from '../testing/sample-properties';

const names = (groups: ReturnType<typeof propertyGroups>) =>
  groups.flatMap((g) => g.properties.map((p) => p.name));

describe('parsePropertyListFilter', () => {
  it.each([
    ['residential', 'residential'],
    ['self-storage', 'self-storage'],
    ['retail', 'retail'],
    ['all', 'all'],
  ])('reads %s', (value, filter) => {
    expect(parsePropertyListFilter(value)).toBe(filter);
  });

  it('reads a missing or unknown filter as all', () => {
    expect(parsePropertyListFilter(null)).toBe('all');
    expect(parsePropertyListFilter('')).toBe('all');
    expect(parsePropertyListFilter('Residential')).toBe('all');
    expect(parsePropertyListFilter('headquarters')).toBe('all');
    expect(parsePropertyListFilter('sold')).toBe('all');
  });
});

describe('propertyGroups', () => {
  const seeded = seededPublicProperties();

  it('groups filter all in the order residential, self-storage, retail, each by name', () => {
    const groups = propertyGroups(seeded, 'all');
    expect(groups.map((g) => g.type).slice(0, 3)).toEqual(['residential', 'self-storage', 'retail']);
    for (const group of groups) {
      const groupNames = group.properties.map((p) => p.name);
      expect(groupNames).toEqual([...groupNames].sort((a, b) => a.localeCompare(b)));
      expect(group.properties.every((p) => p.type === group.type)).toBe(true);
    }
  });

  it('lists only active properties: sold ones never appear', () => {
    const listed = propertyGroups(seeded, 'all').flatMap((g) => g.properties);
    expect(listed.every((p) => p.status === 'active')).toBe(true);
    expect(listed.map((p) => p.name)).not.toContain('Canyon Crest Apartments');
  });

  it('never lists the headquarters under all: the firm does not offer its own office as an investment', () => {
    const listed = names(propertyGroups(seeded, 'all'));
    expect(listed).not.toContain('Everest Properties Headquarters');
  });

  it('lists an active mixed-use or other property under all, after retail, in a group of its own', () => {
    const groups = propertyGroups(
      [
        sampleProperty({ name: 'Zeta Other', type: 'other' }),
        sampleProperty({ name: 'Alpha Mixed', type: 'mixed-use' }),
        sampleProperty({ name: 'Shop', type: 'retail' }),
      ],
      'all',
    );
    expect(groups.map((g) => [g.label, g.properties.map((p) => p.name)])).toEqual([
      ['Retail', ['Shop']],
      ['Mixed Use', ['Alpha Mixed']],
      ['Other', ['Zeta Other']],
    ]);
  });

  it('shows one type sorted by name for a single filter', () => {
    const groups = propertyGroups(seeded, 'self-storage');
    expect(groups).toHaveLength(1);
    expect(groups[0]?.label).toBe('Self Storage');
    expect(groups[0]?.properties.map((p) => p.name)).toEqual([
      'Summit Self Storage Bakersfield',
      'Summit Self Storage Chandler',
      'Summit Self Storage Henderson',
      'Summit Self Storage Ontario',
      'Summit Self Storage Reno',
      'Summit Self Storage Temecula',
      'Summit Self Storage Tucson East',
    ]);
  });

  it('sorts names as readers expect: case aside, numbers by value', () => {
    const groups = propertyGroups(
      [
        sampleProperty({ name: 'Tower 10' }),
        sampleProperty({ name: 'tower 2' }),
        sampleProperty({ name: 'Aspen' }),
      ],
      'residential',
    );
    expect(names(groups)).toEqual(['Aspen', 'tower 2', 'Tower 10']);
  });

  it('answers no group when nothing matches, for the empty message', () => {
    expect(propertyGroups([sampleProperty({ type: 'retail', status: 'sold' })], 'retail')).toEqual([]);
    expect(propertyGroups([], 'all')).toEqual([]);
  });
});

describe('propertyFilterCounts', () => {
  it('counts the active properties of each type, and all as the cards under all', () => {
    const seeded = seededPublicProperties();
    const counts = propertyFilterCounts(seeded);
    const active = (type: string) => seeded.filter((p) => p.status === 'active' && p.type === type).length;
    expect(counts.residential).toBe(active('residential'));
    expect(counts['self-storage']).toBe(active('self-storage'));
    expect(counts.retail).toBe(active('retail'));
    expect(counts.all).toBe(names(propertyGroups(seeded, 'all')).length);
    // 12 + 7 + 5, plus the active mixed-use Broadway Station Lofts; not the headquarters.
    expect(counts).toEqual({ all: 25, residential: 12, 'self-storage': 7, retail: 5, 'self-storage-retail': 12 });
  });
});

describe('the Self Storage / Retail pair', () => {
  it('lists the self-storage group, then the retail group, as the home card counts them', () => {
    const seeded = seededPublicProperties();
    const groups = propertyGroups(seeded, 'self-storage-retail');
    expect(groups.map((g) => g.type)).toEqual(['self-storage', 'retail']);
    expect(names(groups)).toEqual([
      ...names(propertyGroups(seeded, 'self-storage')),
      ...names(propertyGroups(seeded, 'retail')),
    ]);
  });

  it('selects the buttons of both its types and no other', () => {
    expect(propertyFilterButtons.filter((b) => isFilterButtonSelected(b, 'self-storage-retail'))).toEqual([
      'self-storage',
      'retail',
    ]);
    expect(propertyFilterButtons.filter((b) => isFilterButtonSelected(b, 'all'))).toEqual(['all']);
    expect(propertyFilterButtons.filter((b) => isFilterButtonSelected(b, 'retail'))).toEqual(['retail']);
    expect(parsePropertyListFilter('self-storage-retail')).toBe('self-storage-retail');
  });
});
