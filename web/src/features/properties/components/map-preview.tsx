import { makeStyles, tokens } from '@fluentui/react-components';
import { propertyMap } from '@everest/core/domain';
import { middleOf, tileMosaic, worldPixel, zoomToFit, type WorldPoint } from '../../../components/map/tile-mosaic';
import { tileUrl } from '../../../components/map/tile-layer';
import { mapViewFor, type LatLng } from '../property-map-logic';

/**
 * The frame a phone gives the map (375 px wide, less the page's margins; the map's least height),
 * whose fit the picture takes: on a wider screen it shows more around the same place.
 */
const phoneFrame = { width: 343, height: 320 };
/** How far the picture reaches from its centre: a phone's frame at its tallest (60vh of 823 px) is covered. */
const reach = { x: 180, y: 260 };

const useStyles = makeStyles({
  // Under everything else in the frame (the frame is a stacking context of its own), clipped to
  // the map's rounded box.
  preview: {
    position: 'absolute',
    inset: 0,
    zIndex: -1,
    overflow: 'hidden',
    borderRadius: tokens.borderRadiusLarge,
    pointerEvents: 'none',
  },
  // Faded towards its edges, where a wide screen's frame goes on past it.
  mosaic: {
    position: 'absolute',
    left: '50%',
    top: '50%',
    maskImage: 'radial-gradient(closest-side, #000 85%, transparent)',
  },
  tile: { position: 'absolute', width: '256px', height: '256px' },
});

/** Where the map will look: the fitted view's centre, at the whole zoom that fits a phone's frame. */
function previewView(positions: readonly LatLng[]): { centre: WorldPoint; zoom: number } {
  const view = mapViewFor(positions);
  if (view.kind === 'centre') return { centre: worldPixel(view.center, 0), zoom: view.zoom };
  return { centre: middleOf(view.bounds), zoom: zoomToFit(view.bounds, { ...phoneFrame, padding: propertyMap.fitPaddingPx }) };
}

/**
 * The map's first picture, in the page's HTML: the tiles around where the map will look, at a
 * whole zoom, under the map until its own tiles have loaded (the page then drops it). Readers see
 * the region before the map's code has arrived, and without JavaScript; it is also the page's
 * largest paint, which would otherwise wait for that code. Decorative: the list below the map
 * names every property.
 */
export function MapPreview({ positions }: { positions: readonly LatLng[] }) {
  const styles = useStyles();
  const { centre, zoom } = previewView(positions);
  const mosaic = tileMosaic(centre, zoom, reach, tileUrl());
  return (
    <div className={styles.preview} aria-hidden data-map-preview="">
      <div className={styles.mosaic} style={{ width: mosaic.width, height: mosaic.height, marginLeft: -mosaic.centre.left, marginTop: -mosaic.centre.top }}>
        {mosaic.tiles.map((tile) => (
          <img
            key={tile.key}
            className={styles.tile}
            src={tile.src}
            srcSet={tile.srcSet}
            width={256}
            height={256}
            alt=""
            fetchPriority="high"
            style={{ left: tile.left, top: tile.top }}
          />
        ))}
      </div>
    </div>
  );
}
