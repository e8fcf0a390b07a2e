import type { PublicProperty } from '@everest/core/contract';
import { propertyGroupOrder, propertyTypeLabels, type PropertyType } from '@everest/core/domain';
import { compareText } from './compare-text';

/** The `filter` values of /properties (spec: public site, section 2). */
export const propertyListFilters = ['all', 'residential', 'self-storage', 'retail'] as const;
export type PropertyListFilter = (typeof propertyListFilters)[number];
export type PropertyTypeFilter = Exclude<PropertyListFilter, 'all'>;

export const propertyListFilterLabels: Record<PropertyListFilter, string> = {
  all: 'All Properties',
  residential: propertyTypeLabels.residential,
  'self-storage': propertyTypeLabels['self-storage'],
  retail: propertyTypeLabels.retail,
};

/** A missing or unknown `filter` reads as 'all', as the navigation bar reads it. */
export function parsePropertyListFilter(value: string | null): PropertyListFilter {
  return propertyListFilters.find((filter) => filter === value) ?? 'all';
}

/** Names compare as readers expect: letter case and accents aside, numbers by value. */
export const compareByName = (a: { name: string }, b: { name: string }): number =>
  compareText(a.name, b.name, { numeric: true });

/** The properties the list may show at all: active ones of an investment type. */
export function listableProperties(properties: readonly PublicProperty[]): PublicProperty[] {
  return properties.filter((p) => p.status === 'active' && propertyGroupOrder.includes(p.type));
}

export interface PropertyGroup {
  type: PropertyType;
  label: string;
  properties: PublicProperty[];
}

/**
 * The cards of the list for a filter: with 'all', grouped by type in the order residential,
 * self-storage, retail (then mixed-use, other), each group sorted by name; with a type, that
 * type's active properties sorted by name, as one group. Empty groups are left out.
 */
export function propertyGroups(
  properties: readonly PublicProperty[],
  filter: PropertyListFilter,
): PropertyGroup[] {
  const listable = listableProperties(properties);
  const types = filter === 'all' ? propertyGroupOrder : [filter];
  return types
    .map((type) => ({
      type,
      label: propertyTypeLabels[type],
      properties: listable.filter((p) => p.type === type).sort(compareByName),
    }))
    .filter((group) => group.properties.length > 0);
}

/** The count on each filter button: the active properties the filter shows. */
export function propertyFilterCounts(
  properties: readonly PublicProperty[],
): Record<PropertyListFilter, number> {
  const listable = listableProperties(properties);
  const ofType = (type: PropertyType) => listable.filter((p) => p.type === type).length;
  return {
    all: listable.length,
    residential: ofType('residential'),
    'self-storage': ofType('self-storage'),
    retail: ofType('retail'),
  };
}
