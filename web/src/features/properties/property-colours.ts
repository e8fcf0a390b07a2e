import { markerColors } from '@everest/core/domain';
import type { MarkerKind } from './property-map-logic';

/**
 * The colour of each kind of property, shared by the map's markers, its legend and the type
 * badges of the list, so that a colour means the same on both pages. The spec names the colours
 * (core's `markerColors`); these are shades of them dark enough for white text (4.5:1) and,
 * with the marker's white ring, visible on any map tile. Mixed-use and other are purple.
 */
export const propertyColours: Record<MarkerKind, { name: string; hex: string }> = {
  residential: { name: markerColors.residential, hex: '#1D4ED8' },
  'self-storage': { name: markerColors['self-storage'], hex: '#B91C1C' },
  retail: { name: markerColors.retail, hex: '#15803D' },
  headquarters: { name: markerColors.headquarters, hex: '#D4AF37' },
  sold: { name: markerColors.sold, hex: '#8A8F98' },
  other: { name: 'purple', hex: '#6D28D9' },
};

/** Text on a kind's colour: white, but dark on gold and grey, where white would not read. */
export function textOnColour(kind: MarkerKind): string {
  return kind === 'headquarters' || kind === 'sold' ? '#1B1B1B' : '#FFFFFF';
}
