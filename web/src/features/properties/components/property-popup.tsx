import { useEffect, useRef } from 'react';
import type { PopupEvent } from 'leaflet';
import { useMap } from 'react-leaflet';
import { makeStyles, tokens } from '@fluentui/react-components';
import type { PublicProperty } from '@everest/core/contract';
import { propertyTypeLabels } from '@everest/core/domain';
import { cityStateZip } from '../property-contact';
import { markerKindOf } from '../property-map-logic';
import { PropertyPhoneLink, PropertyWebsiteLink } from './property-contact-links';
import { SoldTag } from './sold-tag';

const useStyles = makeStyles({
  popup: {
    minWidth: '200px',
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    ':focus': { outlineStyle: 'none' },
  },
  popupName: {
    margin: `0 0 ${tokens.spacingVerticalXS}`,
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
  },
  popupLine: { margin: `0 0 ${tokens.spacingVerticalXXS}` },
  popupType: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    margin: `${tokens.spacingVerticalXS} 0`,
  },
});

/**
 * The popup's content. It takes focus when it opens, so that a keyboard reader lands on its
 * links instead of tabbing through every other marker first; Escape closes it, and when it
 * closes with focus inside, focus goes back to its marker.
 */
export function PropertyPopup({ property, marker }: { property: PublicProperty; marker: () => HTMLElement | undefined }) {
  const styles = useStyles();
  const map = useMap();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    // react-leaflet renders the content when the popup first opens and keeps it mounted
    // after, so the first opening is this mount and later ones are Leaflet's events.
    container.focus({ preventScroll: true });
    const ours = (event: PopupEvent) => event.popup.getElement()?.contains(container) ?? false;
    const onOpen = (event: PopupEvent) => {
      if (ours(event)) container.focus({ preventScroll: true });
    };
    const onClose = (event: PopupEvent) => {
      if (!ours(event)) return;
      const active = document.activeElement;
      if (!active || active === document.body || container.contains(active)) {
        marker()?.focus({ preventScroll: true });
      }
    };
    map.on('popupopen', onOpen);
    map.on('popupclose', onClose);
    return () => {
      map.off('popupopen', onOpen);
      map.off('popupclose', onClose);
    };
  }, [map, marker]);
  const kind = markerKindOf(property);
  // Divs, not paragraphs: leaflet.css gives popup paragraphs wide margins.
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="group"
      aria-label={property.name}
      className={styles.popup}
      // Leaflet closes a popup on Escape only while the map itself has focus.
      onKeyDown={(event) => {
        if (event.key === 'Escape') map.closePopup();
      }}
    >
      <div className={styles.popupName}>{property.name}</div>
      <div className={styles.popupLine}>{property.address}</div>
      <div className={styles.popupLine}>{cityStateZip(property)}</div>
      <div className={styles.popupType}>
        <span>{propertyTypeLabels[property.type]}</span>
        {kind === 'sold' && <SoldTag />}
      </div>
      {property.phone && (
        <div className={styles.popupLine}>
          <PropertyPhoneLink phone={property.phone} />
        </div>
      )}
      <PropertyWebsiteLink property={property} />
    </div>
  );
}
