import 'leaflet/dist/leaflet.css';
import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  divIcon,
  Map as LeafletMapInstance,
  type DivIcon,
  type LeafletEventHandlerFnMap,
  type LeafletKeyboardEvent,
  type Marker as LeafletMarker,
} from 'leaflet';
import { createLeafletContext, LeafletContext, type LeafletContextInterface } from '@react-leaflet/core';
import { Marker, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { PublicProperty } from '@everest/core/contract';
import { propertyTypeLabels } from '@everest/core/domain';
import { useRevealedCount } from '../../../hooks/use-revealed-count';
import { prefersReducedMotion } from '../../../lib/scroll';
import {
  mapViewFor,
  markerKindOf,
  type LatLng,
  type MarkerKind,
  type PlacedProperty,
} from '../property-map-logic';
import { PropertyPopup } from './property-popup';
import { markerDotColour, markerTargetPx, useMarkerStyles } from '../marker-styles';
import { spreadPoints } from '../marker-spread';
import { TILE_ATTRIBUTION, tileUrl } from '../../../components/map/tile-layer';

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

// The map comes in steps, each in a task of its own: its frame, then the Leaflet map at its
// fitted view, then its tiles, then the markers a few at a time. The map, its tiles and every
// marker in one commit (the icons' HTML, layout, the spread) was a single task of about 250 ms on
// a throttled phone, the map page's largest blocking time.
const markerBatch = 3;

/** Runs `step` in a task after the browser's next paint; the answer cancels it. */
function afterPaint(step: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(step);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
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

/** The Leaflet markers on the map by property id, for the spreading below. */
type MarkerRegistry = Map<number, LeafletMarker>;

/** Sets the view that shows `positions` (spec: the fitted view), jumping or animated. */
function fitView(map: LeafletMapInstance, positions: readonly LatLng[], animate: boolean): void {
  const view = mapViewFor(positions);
  if (view.kind === 'centre') map.setView([...view.center], view.zoom, { animate });
  else {
    const [southWest, northEast] = view.bounds;
    map.fitBounds([[...southWest], [...northEast]], { padding: [view.paddingPx, view.paddingPx], animate });
  }
}

/**
 * react-leaflet's MapContainer, in steps, showing the view that fits `positions` (and following
 * them when a filter changes them). The frame is committed first and the Leaflet map is made
 * after the next paint, straight at the fitted view: Leaflet measures its container as it
 * starts, which in the commit's own task forced a layout of the whole page, and the spec's start
 * view (40, -98, zoom 4) followed by the fit was two view resets of which the reader saw only
 * the second. Its children (layers, markers) render in a later task.
 */
function MapHost({
  className,
  positions,
  children,
}: {
  className: string;
  positions: readonly LatLng[];
  children: ReactNode;
}) {
  const frame = useRef<HTMLDivElement>(null);
  // The positions of the latest render, for the map made a paint later.
  const latestPositions = useRef(positions);
  const fittedPositions = useRef<readonly LatLng[] | null>(null);
  const [context, setContext] = useState<LeafletContextInterface | null>(null);

  useEffect(() => {
    latestPositions.current = positions;
  }, [positions]);

  useEffect(() => {
    const container = frame.current;
    if (!container) return;
    let map: LeafletMapInstance | undefined;
    const cancel = afterPaint(() => {
      // Half steps let fitBounds use more of the frame than whole zoom levels would; the wheel
      // scrolls the page past the map, while the zoom buttons, keys and double click zoom.
      map = new LeafletMapInstance(container, { zoomSnap: 0.5, scrollWheelZoom: false });
      fitView(map, latestPositions.current, false);
      fittedPositions.current = latestPositions.current;
      setContext(createLeafletContext(map));
    });
    return () => {
      cancel();
      map?.remove();
    };
  }, []);

  useEffect(() => {
    if (!context || fittedPositions.current === positions) return;
    fitView(context.map, positions, !prefersReducedMotion());
    fittedPositions.current = positions;
  }, [context, positions]);

  return (
    <div ref={frame} className={className}>
      {context && <LeafletContext value={context}>{children}</LeafletContext>}
    </div>
  );
}

/**
 * Moves markers that would overlap on screen apart, with their popups, after every move or
 * zoom, since the overlap depends on the zoom; zoomed in far enough, each sits on its place.
 * The layout is worked out for every placed property at once, so a batch of new markers takes
 * its places without moving the markers already shown (only the new ones are written).
 */
function SpreadMarkers({
  registry,
  placed,
  shown,
}: {
  registry: MarkerRegistry;
  placed: readonly PlacedProperty[];
  shown: readonly PlacedProperty[];
}) {
  const map = useMap();
  const offsets = useRef(new Map<number, { dx: number; dy: number }>());
  const written = useRef(new WeakMap<LeafletMarker, string>());

  const apply = useMemo(
    () => () => {
      for (const [id, marker] of registry) {
        const offset = offsets.current.get(id);
        const element = marker.getElement();
        if (!offset || !element) continue;
        const { dx, dy } = offset;
        if (written.current.get(marker) === `${dx},${dy}`) continue;
        written.current.set(marker, `${dx},${dy}`);
        // Leaflet places an icon by its transform and anchors it with these margins.
        element.style.marginLeft = `${dx - half}px`;
        element.style.marginTop = `${dy - half}px`;
        // The popup follows its icon (Leaflet's own popup offset is [0, 7]).
        const popup = marker.getPopup();
        if (popup) {
          popup.options.offset = [dx, 7 + dy];
          if (popup.isOpen()) popup.update();
        }
      }
    },
    [registry],
  );

  const layOut = useMemo(
    () => () => {
      const points = placed.map(({ position }) => map.latLngToContainerPoint([...position]));
      const size = map.getSize();
      const moved = spreadPoints(points, markerTargetPx + 1, { width: size.x, height: size.y });
      offsets.current = new Map(
        placed.map(({ property }, i) => {
          const from = points[i];
          const to = moved[i];
          const offset = from && to ? { dx: Math.round(to.x - from.x), dy: Math.round(to.y - from.y) } : { dx: 0, dy: 0 };
          return [property.id, offset];
        }),
      );
      apply();
    },
    [map, placed, apply],
  );

  useMapEvents(useMemo(() => ({ moveend: layOut, zoomend: layOut, resize: layOut }), [layOut]));
  useEffect(() => layOut(), [layOut]);
  useEffect(() => apply(), [apply, shown]);
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
        <PropertyPopup property={property} marker={markerElement} />
      </Popup>
    </Marker>
  );
});

export interface LeafletMapProps {
  placed: readonly PlacedProperty[];
  /** The tiles of the view have loaded (or failed): the picture under the map can go. */
  onTilesLoaded?: () => void;
}

/**
 * The property map (a lazy chunk with Leaflet and its CSS, bundled: the CSP allows no style
 * or script from elsewhere). Markers are coloured 20 px circles, focusable and named.
 */
export default function LeafletMap({ placed, onTilesLoaded }: LeafletMapProps) {
  const styles = useStyles();
  const [tileState, setTileState] = useState<'waiting' | 'loaded' | 'failed'>('waiting');
  const tilesLoaded = useRef(onTilesLoaded);
  useEffect(() => {
    tilesLoaded.current = onTilesLoaded;
  }, [onTilesLoaded]);
  // One object for the map's life: a new one would make react-leaflet unbind and bind the tile
  // layer's events again.
  const tileEvents = useMemo(
    () => ({
      tileload: () => setTileState('loaded'),
      tileerror: () => setTileState((state) => (state === 'loaded' ? state : 'failed')),
      // Every tile of the view has loaded or failed.
      load: () => tilesLoaded.current?.(),
    }),
    [],
  );
  const positions = useMemo(() => placed.map((p) => p.position), [placed]);
  return (
    <>
      <MapHost className={styles.map} positions={positions}>
        <MapLayers placed={placed} tileEvents={tileEvents} />
      </MapHost>
      {tileState === 'failed' && (
        <p className={styles.tilesMissing}>
          The background map could not be loaded. The markers still show where each property is.
        </p>
      )}
    </>
  );
}

/** The tiles a task after the map, then the markers a batch at a time. */
function MapLayers({ placed, tileEvents }: { placed: readonly PlacedProperty[]; tileEvents: LeafletEventHandlerFnMap }) {
  const markerStyles = useMarkerStyles();
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

  const [registry] = useState<MarkerRegistry>(() => new Map());
  const tilesShown = useNextTask();
  const shownCount = useRevealedCount(placed.length, { first: 0, batch: markerBatch, start: tilesShown });
  const shown = useMemo(() => placed.slice(0, shownCount), [placed, shownCount]);

  return (
    <>
      {tilesShown && <TileLayer url={tileUrl()} attribution={TILE_ATTRIBUTION} eventHandlers={tileEvents} />}
      {shown.map((p) => {
        const icon = icons.get(p.property.id);
        return icon ? <PropertyMarker key={p.property.id} placed={p} icon={icon} registry={registry} /> : null;
      })}
      <SpreadMarkers registry={registry} placed={placed} shown={shown} />
    </>
  );
}
