import { makeStyles, tokens } from '@fluentui/react-components';
import { visuallyHiddenStyle } from '../../components/ui/visually-hidden';
import type { MarkerKind } from './property-map-logic';
import { propertyColours } from './property-colours';

/**
 * The marker dot: a 20 px circle (spec) in its kind's colour with a white ring and a thin dark
 * edge, so that it stands out on light and dark tiles alike; sold is grey with a dashed border.
 * Used by the markers (as class names of their icons' elements) and by the legend.
 */
export const useMarkerStyles = makeStyles({
  dot: {
    display: 'block',
    boxSizing: 'border-box',
    width: '20px',
    height: '20px',
    borderRadius: '50%',
    border: '2px solid #ffffff',
    boxShadow: '0 0 0 1px rgba(0, 0, 0, 0.6), 0 1px 3px rgba(0, 0, 0, 0.35)',
  },
  sold: {
    border: '2px dashed #1B1B1B',
    boxShadow: '0 1px 3px rgba(0, 0, 0, 0.35)',
  },
  // The marker's name, for screen readers only (Leaflet's icons are plain DOM, where the shared
  // VisuallyHidden component cannot go).
  name: visuallyHiddenStyle,
  // The element Leaflet makes focusable (tabindex 0, role button) around the dot: 24 px, the
  // smallest target WCAG 2.5.8 accepts, with the 20 px dot in its middle.
  icon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    borderRadius: '50%',
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '3px',
      outlineColor: tokens.colorStrokeFocus2,
      outlineOffset: '2px',
    },
  },
});

/** The tap target around a marker's dot (WCAG 2.5.8: at least 24 × 24 px, not overlapped). */
export const markerTargetPx = 24;

export function markerDotColour(kind: MarkerKind): string {
  return propertyColours[kind].hex;
}
