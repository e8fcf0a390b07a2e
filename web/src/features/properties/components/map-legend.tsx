import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { markerKindLabels, markerKinds } from '../property-map-logic';
import { markerDotColour, useMarkerStyles } from '../marker-styles';

const useStyles = makeStyles({
  legend: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    margin: `${tokens.spacingVerticalM} 0 0`,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  heading: {
    margin: 0,
    fontSize: tokens.fontSizeBase300,
    fontWeight: tokens.fontWeightSemibold,
  },
  list: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  item: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    fontSize: tokens.fontSizeBase300,
  },
});

/** The legend of the marker colours (spec), the same dots the map draws. */
export function MapLegend() {
  const styles = useStyles();
  const markerStyles = useMarkerStyles();
  return (
    <div className={styles.legend}>
      <h2 id="map-legend-heading" className={styles.heading}>
        Legend
      </h2>
      <ul className={styles.list} aria-labelledby="map-legend-heading">
        {markerKinds.map((kind) => (
          <li key={kind} className={styles.item} data-legend-kind={kind}>
            <span
              aria-hidden
              className={mergeClasses(markerStyles.dot, kind === 'sold' && markerStyles.sold)}
              style={{ backgroundColor: markerDotColour(kind) }}
            />
            {markerKindLabels[kind]}
          </li>
        ))}
      </ul>
    </div>
  );
}
