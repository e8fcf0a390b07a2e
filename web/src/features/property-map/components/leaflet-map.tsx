import 'leaflet/dist/leaflet.css';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import {
  divIcon,
  type DivIcon,
  type LeafletKeyboardEvent,
  type Marker as LeafletMarker,
  type PopupEvent,
} from 'leaflet';
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { PublicProperty } from '@everest/core/contract';
import { propertyMap, propertyTypeLabels } from '@everest/core/domain';
import { prefersReducedMotion } from '../../../lib/scroll';
import { cityStateZip } from '../../properties/property-contact';
import {
  mapViewFor,
  markerKindOf,
  type MarkerKind,
  type PlacedProperty,
} from '../../properties/property-map-logic';
import { PropertyPhoneLink, PropertyWebsiteLink } from '../../properties/components/property-contact-links';
import { markerDotColour, markerTargetPx, useMarkerStyles } from '../marker-styles';
import { spreadPoints } from '../marker-spread';
import { TILE_ATTRIBUTION, TILE_URL } from '../../../components/map/tile-layer';

const useStyles = makeStyles({
  map: {
    height: 'clamp(320px, 60vh, 560px)',
    width: '100%',
    borderRadius: tokens.borderRadiusLarge,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    fontFamily: tokens.fontFamilyBase,
    // Shown where tiles are missing (no network, or the tile service is down), so that the
    // markers still read as points on a surface. Two classes, to win over leaflet.css.
    '&.leaflet-container': { backgroundColor: '#DCE4EC' },
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: tokens.colorStrokeFocus2,
      outlineOffset: '2px',
    },
  },
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
  soldTag: {
    padding: `0 ${tokens.spacingHorizontalXS}`,
    borderRadius: tokens.borderRadiusSmall,
    backgroundColor: '#3D3D3D',
    color: '#ffffff',
    fontSize: tokens.fontSizeBase100,
    fontWeight: tokens.fontWeightBold,
    letterSpacing: '0.06em',
  },
  tilesMissing: {
    margin: `${tokens.spacingVerticalXS} 0 0`,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
  },
});

/** What a marker is called to assistive technology and in its hover title. */
export function markerLabel(property: PublicProperty): string {
  const type = propertyTypeLabels[property.type];
  return property.status === 'sold' ? `${property.name}, ${type}, sold` : `${property.name}, ${type}`;
}

const half = markerTargetPx / 2;

// The map comes in steps, each in a task of its own: the map itself, then its tiles, then the
// markers a few at a time. The map, its tiles and every marker in one commit (the icons' HTML,
// layout, the spread) was a single task of about 250 ms on a throttled phone, the map page's
// largest blocking time.
const markerBatch = 3;

/**
 * False until the browser has painted the page once since mount. Leaflet measures its container
 * as it starts, which forces a layout of the whole page in the same task if the page has just
 * changed: after a paint, that layout is done already, in the browser's own task.
 */
function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

/** False in the first commit, true from the next task on. */
function useNextTask(): boolean {
  const [next, setNext] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setNext(true));
    return () => clearTimeout(timer);
  }, []);
  return next;
}

/**
 * How many of `total` markers are on the map so far: none until `start`, then one more batch
 * after each commit (each update in a task of its own: React would render updates that come
 * before its next render together).
 */
function useMarkersShown(total: number, start: boolean): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (!start || shown >= total) return;
    const timer = setTimeout(() => setShown((n) => n + markerBatch));
    return () => clearTimeout(timer);
  }, [shown, total, start]);
  return Math.min(shown, total);
}

/** The Leaflet markers on the map by property id, for the spreading below. */
type MarkerRegistry = Map<number, LeafletMarker>;

/** Moves the view to the placed properties whenever they change (spec: fit after start). */
function FitView({ positions }: { positions: readonly (readonly [number, number])[] }) {
  const map = useMap();
  const fitted = useRef(false);
  useEffect(() => {
    const view = mapViewFor(positions);
    // The first fit is where the page starts, not a move to follow: it jumps there at once
    // (an animated zoom on load is a quarter second of work while the page is still starting).
    const animate = fitted.current && !prefersReducedMotion();
    fitted.current = true;
    if (view.kind === 'centre') map.setView([...view.center], view.zoom, { animate });
    else {
      const [southWest, northEast] = view.bounds;
      map.fitBounds([[...southWest], [...northEast]], {
        padding: [view.paddingPx, view.paddingPx],
        animate,
      });
    }
  }, [map, positions]);
  return null;
}

/**
 * The popup's content. It takes focus when it opens, so that a keyboard reader lands on its
 * links instead of tabbing through every other marker first; Escape closes it, and when it
 * closes with focus inside, focus goes back to its marker.
 */
function PopupContent({ property, marker }: { property: PublicProperty; marker: () => HTMLElement | undefined }) {
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
        {kind === 'sold' && <span className={styles.soldTag}>SOLD</span>}
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

/**
 * Moves markers that would overlap on screen apart, with their popups, after every move or
 * zoom, since the overlap depends on the zoom; zoomed in far enough, each sits on its place.
 */
function SpreadMarkers({ registry, placed }: { registry: MarkerRegistry; placed: readonly PlacedProperty[] }) {
  const map = useMap();
  const spread = useMemo(
    () => () => {
      const markers = [...registry.values()].filter((marker) => map.hasLayer(marker));
      const points = markers.map((marker) => map.latLngToContainerPoint(marker.getLatLng()));
      const size = map.getSize();
      const moved = spreadPoints(points, markerTargetPx + 1, { width: size.x, height: size.y });
      markers.forEach((marker, i) => {
        const element = marker.getElement();
        const from = points[i];
        const to = moved[i];
        if (!element || !from || !to) return;
        const dx = Math.round(to.x - from.x);
        const dy = Math.round(to.y - from.y);
        // Leaflet places an icon by its transform and anchors it with these margins.
        element.style.marginLeft = `${dx - half}px`;
        element.style.marginTop = `${dy - half}px`;
        // The popup follows its icon (Leaflet's own popup offset is [0, 7]).
        const popup = marker.getPopup();
        if (popup) {
          popup.options.offset = [dx, 7 + dy];
          if (popup.isOpen()) popup.update();
        }
      });
    },
    [map, registry],
  );
  useMapEvents({ moveend: spread, zoomend: spread, resize: spread });
  useEffect(() => spread(), [spread, placed]);
  return null;
}

// Leaflet opens a marker's popup on Enter only; a role=button answers Space too.
const markerEventHandlers = {
  keypress: (event: LeafletKeyboardEvent) => {
    if (event.originalEvent.key === ' ') {
      event.originalEvent.preventDefault();
      (event.target as LeafletMarker).openPopup();
    }
  },
};

/**
 * One marker. Memoised, with props that keep their identity, because the map adds markers in
 * batches: otherwise every batch would render every marker again, and react-leaflet would move
 * each one to a "new" position, re-bind its events and call its ref again.
 */
const PropertyMarker = memo(function PropertyMarker({
  placed,
  icon,
  registry,
}: {
  placed: PlacedProperty;
  icon: DivIcon;
  registry: MarkerRegistry;
}) {
  const { property, position } = placed;
  const markerRef = useRef<LeafletMarker | null>(null);
  const markerElement = useMemo(() => () => markerRef.current?.getElement(), []);
  const latLng = useMemo((): [number, number] => [...position], [position]);
  const setMarker = useMemo(
    () => (marker: LeafletMarker | null) => {
      markerRef.current = marker;
      if (marker) registry.set(property.id, marker);
      else registry.delete(property.id);
    },
    [registry, property.id],
  );
  return (
    <Marker
      ref={setMarker}
      position={latLng}
      icon={icon}
      title={markerLabel(property)}
      keyboard
      eventHandlers={markerEventHandlers}
    >
      <Popup>
        <PopupContent property={property} marker={markerElement} />
      </Popup>
    </Marker>
  );
});

export interface LeafletMapProps {
  placed: readonly PlacedProperty[];
}

/**
 * The property map (a lazy chunk with Leaflet and its CSS, bundled: the CSP allows no style
 * or script from elsewhere). Markers are coloured 20 px circles, focusable and named.
 */
export default function LeafletMap({ placed }: LeafletMapProps) {
  const styles = useStyles();
  // The frame, at the map's size, holds its place until the map starts.
  return useAfterPaint() ? <MapView placed={placed} /> : <div className={styles.map} />;
}

function MapView({ placed }: LeafletMapProps) {
  const styles = useStyles();
  const markerStyles = useMarkerStyles();
  const [tileState, setTileState] = useState<'waiting' | 'loaded' | 'failed'>('waiting');
  // One object for the map's life: a new one each render (every marker batch renders the map)
  // would make react-leaflet unbind and bind the tile layer's events again.
  const tileEvents = useMemo(
    () => ({
      tileload: () => setTileState('loaded'),
      tileerror: () => setTileState((state) => (state === 'loaded' ? state : 'failed')),
    }),
    [],
  );

  const icons = useMemo(() => {
    // The icon's content as elements rather than an HTML string, which Leaflet would parse for
    // each marker (about 1.5 ms apiece on a throttled phone): the dot, holding the name that
    // screen readers announce.
    const make = (kind: MarkerKind, label: string): DivIcon => {
      const dot = document.createElement('span');
      dot.className = mergeClasses(markerStyles.dot, kind === 'sold' && markerStyles.sold);
      dot.style.backgroundColor = markerDotColour(kind);
      dot.dataset.markerKind = kind;
      const name = document.createElement('span');
      name.className = markerStyles.name;
      name.textContent = label;
      dot.append(name);
      return divIcon({
        className: markerStyles.icon,
        html: dot,
        iconSize: [markerTargetPx, markerTargetPx],
        iconAnchor: [half, half],
        popupAnchor: [0, -half],
      });
    };
    return new Map(placed.map(({ property }) => [property.id, make(markerKindOf(property), markerLabel(property))]));
  }, [placed, markerStyles]);

  const positions = useMemo(() => placed.map((p) => p.position), [placed]);
  const [registry] = useState<MarkerRegistry>(() => new Map());
  const tilesShown = useNextTask();
  const shownCount = useMarkersShown(placed.length, tilesShown);
  const shown = useMemo(() => placed.slice(0, shownCount), [placed, shownCount]);

  return (
    <>
      <MapContainer
        center={[...propertyMap.center]}
        zoom={propertyMap.initialZoom}
        // Half steps let fitBounds use more of the frame than whole zoom levels would.
        zoomSnap={0.5}
        // The wheel scrolls the page past the map; the zoom buttons, keys and double click zoom.
        scrollWheelZoom={false}
        className={styles.map}
      >
        {/* Before the tiles come, so that they load once, for the fitted view. */}
        <FitView positions={positions} />
        {tilesShown && (
          <TileLayer
            url={TILE_URL}
            attribution={TILE_ATTRIBUTION}
            eventHandlers={tileEvents}
          />
        )}
        {shown.map((p) => {
          const icon = icons.get(p.property.id);
          return icon ? <PropertyMarker key={p.property.id} placed={p} icon={icon} registry={registry} /> : null;
        })}
        <SpreadMarkers registry={registry} placed={shown} />
      </MapContainer>
      {tileState === 'failed' && (
        <p className={styles.tilesMissing}>
          The background map could not be loaded. The markers still show where each property is.
        </p>
      )}
    </>
  );
}
