// The maps of the public site: the property map's start view, zoom and marker colours (one per
// property type, headquarters and sold), the contact page's map, and the precision of geocoded
// coordinates.

/** Geocoded coordinates are kept to this many decimals. */
export const coordinateDecimals = 6;

export const propertyMap = {
  center: [40, -98] as const,
  initialZoom: 4,
  singlePropertyZoom: 10,
  fitPaddingPx: 20,
  markerSizePx: 20,
} as const;

export const markerColors = {
  residential: 'blue',
  'self-storage': 'red',
  retail: 'green',
  headquarters: 'gold',
  sold: 'grey',
} as const;

export const contactMap = { center: [34.14, -118.15] as const, zoom: 11 } as const;
