import type { PublicProperty } from '@everest/core/contract';
import { propertyGroupOrder, propertyTypeLabels, type PropertyType } from '@everest/core/domain';
import { compareText } from './compare-text';

/**
 * The `filter` values of /properties: the spec's four (public site, section 2), and the pair
 * that the home page's 'Self Storage / Retail' card links to, so that its list shows what the
 * card counts (web/README).
 */
export const propertyListFilters = ['all', 'residential', 'self-storage', 'retail', 'self-storage-retail'] as const;
export type PropertyListFilter = (typeof propertyListFilters)[number];

/** The list's filter buttons: the spec's four. The pair selects both of its types' buttons. */
export const propertyFilterButtons = ['all', 'residential', 'self-storage', 'retail'] as const satisfies
  readonly PropertyListFilter[];
export type PropertyFilterButton = (typeof propertyFilterButtons)[number];

/** The types each filter shows, in the order of their groups. */
const filterTypes: Record<PropertyListFilter, readonly PropertyType[]> = {
  all: propertyGroupOrder,
  residential: ['residential'],
  'self-storage': ['self-storage'],
  retail: ['retail'],
  'self-storage-retail': ['self-storage', 'retail'],
};

export const propertyListFilterLabels: Record<PropertyFilterButton, string> = {
  all: 'All Properties',
  residential: propertyTypeLabels.residential,
  'self-storage': propertyTypeLabels['self-storage'],
  retail: propertyTypeLabels.retail,
};

/** A missing or unknown `filter` reads as 'all', as the navigation bar reads it. */
export function parsePropertyListFilter(value: string | null): PropertyListFilter {
  return propertyListFilters.find((filter) => filter === value) ?? 'all';
}

/** Whether a filter button shows as selected: its own filter, or a type of the pair. */
export function isFilterButtonSelected(button: PropertyFilterButton, filter: PropertyListFilter): boolean {
  if (button === filter) return true;
  return button !== 'all' && filter !== 'all' && filterTypes[filter].includes(button);
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
 * type's active properties sorted by name, as one group; with the pair, its two groups. Empty
 * groups are left out.
 */
export function propertyGroups(
  properties: readonly PublicProperty[],
  filter: PropertyListFilter,
): PropertyGroup[] {
  const listable = listableProperties(properties);
  return filterTypes[filter]
    .map((type) => ({
      type,
      label: propertyTypeLabels[type],
      properties: listable.filter((p) => p.type === type).sort(compareByName),
    }))
    .filter((group) => group.properties.length > 0);
}

/** The count of each filter (on its button, and on the home page's cards): the active properties it shows. */
export function propertyFilterCounts(
  properties: readonly PublicProperty[],
): Record<PropertyListFilter, number> {
  const listable = listableProperties(properties);
  const count = (filter: PropertyListFilter) =>
    listable.filter((p) => filterTypes[filter].includes(p.type)).length;
  return {
    all: count('all'),
    residential: count('residential'),
    'self-storage': count('self-storage'),
    retail: count('retail'),
    'self-storage-retail': count('self-storage-retail'),
  };
}
