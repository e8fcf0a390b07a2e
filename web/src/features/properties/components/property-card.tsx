import { memo, useId } from 'react';
import type { PublicProperty } from '@everest/core/contract';
import { makeStyles, tokens } from '@fluentui/react-components';
import { everestBrand } from '../../../lib/theme';
import { cityStateZip } from '../property-contact';
import { PropertyPhoneLink, PropertyWebsiteLink } from './property-contact-links';
import { PropertyImage, propertyListImageSizes } from '../../../components/ui/property-image';
import { PropertyTypeBadge } from './property-type-badge';

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    overflow: 'hidden',
    height: '100%',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  body: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalS,
    flexGrow: 1,
    padding: tokens.spacingHorizontalL,
  },
  name: {
    margin: 0,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase500,
    lineHeight: tokens.lineHeightBase500,
    fontWeight: tokens.fontWeightSemibold,
    overflowWrap: 'anywhere',
  },
  address: {
    margin: 0,
    fontStyle: 'normal',
    color: tokens.colorNeutralForeground2,
    lineHeight: tokens.lineHeightBase300,
  },
  website: { marginTop: 'auto', paddingTop: tokens.spacingVerticalXS },
});

export interface PropertyCardProps {
  property: PublicProperty;
  lazyImage: boolean;
  priorityImage?: boolean;
}

/**
 * A card of the list: image, name, type badge, address, optional phone and website (spec).
 * Memoised: the list renders its cards a batch at a time, and a batch need not render again
 * the cards already shown.
 */
export const PropertyCard = memo(function PropertyCard({ property, lazyImage, priorityImage = false }: PropertyCardProps) {
  const styles = useStyles();
  const nameId = useId();
  return (
    <article className={styles.card} aria-labelledby={nameId}>
      <PropertyImage
        src={property.image}
        variants={property.imageVariants}
        sizes={propertyListImageSizes}
        lazy={lazyImage}
        priority={priorityImage}
      />
      <div className={styles.body}>
        <h3 id={nameId} className={styles.name}>
          {property.name}
        </h3>
        <PropertyTypeBadge property={property} />
        <p className={styles.address}>
          {property.address}
          <br />
          {cityStateZip(property)}
        </p>
        <PropertyPhoneLink phone={property.phone} />
        <PropertyWebsiteLink property={property} className={styles.website} />
      </div>
    </article>
  );
});
