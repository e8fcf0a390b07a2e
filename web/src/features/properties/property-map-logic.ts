import type { PublicProperty } from '@everest/core/contract';
import { propertyMap, propertyTypeLabels } from '@everest/core/domain';
import { compareText } from '../../lib/compare-text';
import { compareByName } from '../../lib/property-list';

/** The filter buttons of /property-map, in the spec's order. */
export const propertyMapFilters = [
  'all-active',
  'residential',
  'self-storage',
  'retail',
  'headquarters',
  'sold',
] as const;
export type PropertyMapFilter = (typeof propertyMapFilters)[number];

export const propertyMapFilterLabels: Record<PropertyMapFilter, string> = {
  'all-active': 'All Active',
  residential: propertyTypeLabels.residential,
  'self-storage': propertyTypeLabels['self-storage'],
  retail: propertyTypeLabels.retail,
  headquarters: 'HQ',
  sold: 'Sold',
};

/**
 * Spec: All Active shows active properties plus headquarters; HQ shows type headquarters; Sold
 * shows status sold; a type filter shows that type with status active. An inactive property
 * is never public, whatever the server sends.
 */
export function matchesMapFilter(property: PublicProperty, filter: PropertyMapFilter): boolean {
  if (property.status === 'inactive') return false;
  switch (filter) {
    case 'all-active':
      return property.status === 'active' || property.type === 'headquarters';
    case 'headquarters':
      return property.type === 'headquarters';
    case 'sold':
      return property.status === 'sold';
    default:
      return property.type === filter && property.status === 'active';
  }
}

/** The visible properties of a filter, by name. */
export function propertiesForMapFilter(
  properties: readonly PublicProperty[],
  filter: PropertyMapFilter,
): PublicProperty[] {
  return properties.filter((p) => matchesMapFilter(p, filter)).sort(compareByName);
}

export function propertyMapFilterCounts(
  properties: readonly PublicProperty[],
): Record<PropertyMapFilter, number> {
  const count = (filter: PropertyMapFilter) =>
    properties.filter((p) => matchesMapFilter(p, filter)).length;
  return {
    'all-active': count('all-active'),
    residential: count('residential'),
    'self-storage': count('self-storage'),
    retail: count('retail'),
    headquarters: count('headquarters'),
    sold: count('sold'),
  };
}

// ---- Markers ---------------------------------------------------------------------------------

/**
 * What a marker's colour says. The spec colours residential, self-storage, retail,
 * headquarters and sold; an active mixed-use or other property gets a colour of its own.
 */
export const markerKinds = ['residential', 'self-storage', 'retail', 'headquarters', 'sold', 'other'] as const;
export type MarkerKind = (typeof markerKinds)[number];

/** Sold wins over the type: a sold property is grey and dashed whatever it was. */
export function markerKindOf(property: Pick<PublicProperty, 'type' | 'status'>): MarkerKind {
  if (property.status === 'sold') return 'sold';
  switch (property.type) {
    case 'residential':
    case 'self-storage':
    case 'retail':
    case 'headquarters':
      return property.type;
    default:
      return 'other';
  }
}

export const markerKindLabels: Record<MarkerKind, string> = {
  residential: propertyTypeLabels.residential,
  'self-storage': propertyTypeLabels['self-storage'],
  retail: propertyTypeLabels.retail,
  headquarters: propertyTypeLabels.headquarters,
  sold: 'Sold',
  other: `${propertyTypeLabels['mixed-use']} / ${propertyTypeLabels.other}`,
};

// ---- Coordinates and the view ----------------------------------------------------------------

export type LatLng = readonly [lat: number, lng: number];

function parseCoordinate(text: string | null, limit: number): number | null {
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
}

/** The spec's coordinates are strings; a property is placed only when both parse. */
export function coordinatesOf(property: Pick<PublicProperty, 'latitude' | 'longitude'>): LatLng | null {
  const lat = parseCoordinate(property.latitude, 90);
  const lng = parseCoordinate(property.longitude, 180);
  return lat === null || lng === null ? null : [lat, lng];
}

export interface PlacedProperty {
  property: PublicProperty;
  position: LatLng;
}

export function placedProperties(properties: readonly PublicProperty[]): PlacedProperty[] {
  return properties.flatMap((property) => {
    const position = coordinatesOf(property);
    return position ? [{ property, position }] : [];
  });
}

export type MapView =
  | { kind: 'centre'; center: LatLng; zoom: number }
  | { kind: 'bounds'; bounds: readonly [LatLng, LatLng]; paddingPx: number };

export const initialMapView: MapView = {
  kind: 'centre',
  center: propertyMap.center,
  zoom: propertyMap.initialZoom,
};

/**
 * Where the map looks for the placed properties (spec): none keeps the starting view over the
 * central US, one gives zoom 10 on it, several fit their bounds with 20 px padding. Several
 * properties on one spot are treated as one, since their bounds have no size to fit.
 */
export function mapViewFor(positions: readonly LatLng[]): MapView {
  const [first] = positions;
  if (!first) return initialMapView;
  const lats = positions.map(([lat]) => lat);
  const lngs = positions.map(([, lng]) => lng);
  const south = Math.min(...lats);
  const north = Math.max(...lats);
  const west = Math.min(...lngs);
  const east = Math.max(...lngs);
  if (south === north && west === east) {
    return { kind: 'centre', center: first, zoom: propertyMap.singlePropertyZoom };
  }
  return {
    kind: 'bounds',
    bounds: [
      [south, west],
      [north, east],
    ],
    paddingPx: propertyMap.fitPaddingPx,
  };
}

// ---- Properties by location ------------------------------------------------------------------

export interface StateGroup {
  state: string;
  properties: PublicProperty[];
}

// 'ca ' and 'CA' are one state; a name written out ('Nevada') is kept as written.
function stateKey(state: string): string {
  const trimmed = state.trim();
  return /^[a-z]{2}$/i.test(trimmed) ? trimmed.toUpperCase() : trimmed;
}

/** 'Properties by Location': the properties by state, states alphabetically, each by name. */
export function groupByState(properties: readonly PublicProperty[]): StateGroup[] {
  const groups = new Map<string, PublicProperty[]>();
  for (const property of properties) {
    const key = stateKey(property.state);
    groups.set(key, [...(groups.get(key) ?? []), property]);
  }
  return [...groups]
    .map(([state, members]) => ({ state, properties: [...members].sort(compareByName) }))
    .sort((a, b) => compareText(a.state, b.state));
}
