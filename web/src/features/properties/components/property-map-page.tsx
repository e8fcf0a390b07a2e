import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { publicMessages } from '@everest/core/domain';
import { PageContainer } from '../../../components/ui/page-container';
import { useHydrated } from '../../../components/ui/use-hydrated';
import { useProperties } from '../../../lib/properties-query';
import { useFilterPillStyles } from './filter-pill-styles';
import { PageIntro } from './page-intro';
import { LoadFailure, LoadingText } from './query-status';
import {
  placedProperties,
  propertiesForMapFilter,
  propertyMapFilterCounts,
  propertyMapFilterLabels,
  propertyMapFilters,
  type PropertyMapFilter,
} from '../property-map-logic';
import { MapLegend } from './map-legend';
import { MapPreview } from './map-preview';
import { PropertiesByLocation } from './properties-by-location';

// Leaflet and its CSS come in their own chunk, so that the filters, the legend and the list
// are on screen while the map code arrives.
const LeafletMap = lazy(() => import('./leaflet-map'));

const useStyles = makeStyles({
  // The map's height, held while its code arrives, so that nothing below it moves.
  // Its own stacking context: Leaflet's panes and controls carry z-indexes up to 1000, which
  // otherwise stack above the sticky navigation bar (z-index 100) when the map scrolls under it.
  mapFrame: { minHeight: 'clamp(320px, 60vh, 560px)', position: 'relative', zIndex: 0, isolation: 'isolate' },
  // While the map's first picture is under it, the map lets it show through (its own grey is for
  // missing tiles). On the frame, not the map: Leaflet's classes on the map's element would be
  // lost to a class React changes there. Three classes, to win over the map's own two.
  framesPreview: { '& .leaflet-container.leaflet-container': { backgroundColor: 'transparent' } },
  mapSummary: {
    margin: `${tokens.spacingVerticalS} 0 0`,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
  },
});

/** /property-map: 'Property Portfolio Map' (spec: public site, section 2). */
export function PropertyMapPage() {
  const styles = useStyles();
  const pills = useFilterPillStyles();
  const [filter, setFilter] = useState<PropertyMapFilter>('all-active');
  const [openId, setOpenId] = useState<number | null>(null);
  // The map's first picture, until the map's own tiles have loaded.
  const [previewShown, setPreviewShown] = useState(true);
  const { data, isPending, isError, refetch } = useProperties();
  // Leaflet draws in a browser only: the server's HTML holds the map's frame and its loading text.
  const hydrated = useHydrated();

  const counts = useMemo(() => (data ? propertyMapFilterCounts(data) : undefined), [data]);
  const visible = useMemo(() => (data ? propertiesForMapFilter(data, filter) : []), [data, filter]);
  const placed = useMemo(() => placedProperties(visible), [visible]);
  const positions = useMemo(() => placed.map((p) => p.position), [placed]);
  const unplaced = visible.length - placed.length;

  const hidePreview = useCallback(() => setPreviewShown(false), []);

  const chooseFilter = (next: PropertyMapFilter) => {
    setFilter(next);
    // A detail card of a property that the new filter hides would point at nothing.
    if (data && openId !== null && !propertiesForMapFilter(data, next).some((p) => p.id === openId)) {
      setOpenId(null);
    }
  };

  return (
    <PageContainer title="Property Portfolio Map">
      <PageIntro>
        Where our properties are: active apartment communities, self-storage facilities and
        retail centers, our headquarters in Pasadena, and the properties we have sold.
      </PageIntro>
      <div role="group" aria-label="Show on the map" className={pills.bar}>
        {propertyMapFilters.map((f) => (
          <button
            key={f}
            type="button"
            aria-pressed={f === filter}
            className={mergeClasses(pills.pill, f === filter && pills.selected)}
            onClick={() => chooseFilter(f)}
            data-filter={f}
          >
            {propertyMapFilterLabels[f]}
            <span className={pills.count}>{counts ? `(${counts[f]})` : ''}</span>
          </button>
        ))}
      </div>
      {isPending ? (
        <LoadingText text={publicMessages.loadingPropertyMap} />
      ) : isError ? (
        <LoadFailure onRetry={() => void refetch()} />
      ) : (
        <>
          <div className={mergeClasses(styles.mapFrame, previewShown && styles.framesPreview)}>
            {previewShown && <MapPreview positions={positions} />}
            {hydrated ? (
              <Suspense fallback={<LoadingText text={publicMessages.loadingPropertyMap} holdScreen={false} />}>
                <LeafletMap placed={placed} onTilesLoaded={hidePreview} />
              </Suspense>
            ) : (
              <LoadingText text={publicMessages.loadingPropertyMap} holdScreen={false} />
            )}
          </div>
          <p className={styles.mapSummary} aria-live="polite">
            {`${placed.length} of ${visible.length} ${visible.length === 1 ? 'property' : 'properties'} on the map`}
            {unplaced > 0 ? `; ${unplaced} not yet placed ${unplaced === 1 ? 'is' : 'are'} listed below.` : '.'}
          </p>
          <MapLegend />
          <PropertiesByLocation properties={visible} openId={openId} onOpenChange={setOpenId} />
        </>
      )}
    </PageContainer>
  );
}
