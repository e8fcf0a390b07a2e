import type { PublicProperty } from '@everest/core/contract';
import { propertyTypeLabels } from '@everest/core/domain';
import { makeStyles, tokens } from '@fluentui/react-components';
import { propertyColours, textOnColour } from '../property-colours';
import { markerKindOf } from '../property-map-logic';

const useStyles = makeStyles({
  badge: {
    display: 'inline-block',
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusCircular,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
    fontWeight: tokens.fontWeightSemibold,
  },
});

/** The type of a property as a coloured pill, in the colour its marker has on the map. */
export function PropertyTypeBadge({ property }: { property: Pick<PublicProperty, 'type'> }) {
  const styles = useStyles();
  // The type's colour, not the sold grey: the list shows only active properties.
  const kind = markerKindOf({ type: property.type, status: 'active' });
  return (
    <span
      className={styles.badge}
      style={{ backgroundColor: propertyColours[kind].hex, color: textOnColour(kind) }}
    >
      {propertyTypeLabels[property.type]}
    </span>
  );
}
