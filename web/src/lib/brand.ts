import type { BrandVariants } from '@fluentui/react-components';

// Slate navy, hue 215: shade 80 (the light theme's primary) gives white text 8.4:1.
export const everestBrand: BrandVariants = {
  10: '#070C12',
  20: '#0D1521',
  30: '#131F2F',
  40: '#19283E',
  50: '#1F324C',
  60: '#253B5B',
  70: '#2B4569',
  80: '#314E77',
  90: '#3B5F91',
  100: '#466FAA',
  110: '#5C84BC',
  120: '#799AC8',
  130: '#96B0D4',
  140: '#B3C6E0',
  150: '#D0DCEC',
  160: '#E9EFF6',
};

// Warm gold accent. `onDark` is for text and marks on navy (8.7:1 on shade 20), `onLight`
// for text and marks on white (5.1:1): both pass WCAG AA for text.
export const accentGold = {
  onDark: '#D4AF37',
  onLight: '#8A6A12',
} as const;

export const everestFontFamily =
  "'Segoe UI', 'Segoe UI Web (West European)', -apple-system, BlinkMacSystemFont, Roboto, 'Helvetica Neue', Arial, sans-serif";
