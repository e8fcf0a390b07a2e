import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import type { PublicProperty } from '@everest/core/contract';
import { propertyTypeLabels, publicMessages } from '@everest/core/domain';
import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { DismissIcon } from '../../../components/ui/icons';
import { everestBrand } from '../../../lib/theme';
import { PropertyPhoneLink, PropertyWebsiteLink } from './property-contact-links';
import { PropertyImage, propertyDetailImageSizes } from '../../../components/ui/property-image';
import { SoldTag } from './sold-tag';
import { cityStateZip } from '../property-contact';
import { coordinatesOf, groupByState } from '../property-map-logic';

const useStyles = makeStyles({
  heading: {
    margin: `${tokens.spacingVerticalXXXL} 0 ${tokens.spacingVerticalL}`,
    color: everestBrand[30],
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
  },
  states: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 260px), 1fr))',
    alignItems: 'start',
    gap: tokens.spacingHorizontalL,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  state: {
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  stateHeading: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'baseline',
    margin: `0 0 ${tokens.spacingVerticalS}`,
    paddingBottom: tokens.spacingVerticalXS,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
  },
  stateCount: {
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase300,
    fontWeight: tokens.fontWeightRegular,
  },
  entries: { listStyleType: 'none', margin: 0, padding: 0 },
  entry: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
    width: '100%',
    minHeight: '40px',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    border: 'none',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: 'transparent',
    color: tokens.colorNeutralForeground1,
    fontFamily: 'inherit',
    fontSize: tokens.fontSizeBase300,
    textAlign: 'start',
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: tokens.colorStrokeFocus2,
    },
  },
  entryOpen: {
    backgroundColor: everestBrand[160],
    fontWeight: tokens.fontWeightSemibold,
  },
  // Spec: a sold property shows "with reduced opacity in the list"; this is the one list that
  // holds sold properties. 0.75 keeps the text above 4.5:1.
  sold: { opacity: 0.75 },
  card: {
    position: 'relative',
    margin: `${tokens.spacingVerticalS} 0`,
    overflow: 'hidden',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow8,
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: tokens.colorStrokeFocus2,
    },
  },
  cardBody: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
  },
  cardName: {
    margin: 0,
    paddingRight: '36px',
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
  },
  cardLine: { margin: 0, color: tokens.colorNeutralForeground2 },
  close: {
    position: 'absolute',
    top: tokens.spacingVerticalXS,
    right: tokens.spacingHorizontalXS,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  note: { margin: 0, color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  empty: { margin: 0, color: tokens.colorNeutralForeground2 },
});

function DetailCard({
  property,
  id,
  onClose,
}: {
  property: PublicProperty;
  id: string;
  onClose: () => void;
}) {
  const styles = useStyles();
  const ref = useRef<HTMLDivElement>(null);
  const nameId = useId();
  // Opening moves focus to the card, so that its links come next; Escape closes it.
  useEffect(() => {
    ref.current?.focus();
  }, [property.id]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
  };
  return (
    <div
      ref={ref}
      id={id}
      role="group"
      aria-labelledby={nameId}
      tabIndex={-1}
      className={styles.card}
      onKeyDown={onKeyDown}
    >
      <PropertyImage src={property.image} variants={property.imageVariants} sizes={propertyDetailImageSizes} lazy={false} />
      <div className={styles.cardBody}>
        <h4 id={nameId} className={styles.cardName}>
          {property.name}
        </h4>
        <p className={styles.cardLine}>
          {propertyTypeLabels[property.type]}
          {property.status === 'sold' && ' · Sold'}
        </p>
        <p className={styles.cardLine}>
          {property.address}
          <br />
          {cityStateZip(property)}
        </p>
        <PropertyPhoneLink phone={property.phone} />
        <PropertyWebsiteLink property={property} />
        {!coordinatesOf(property) && <p className={styles.note}>Not yet placed on the map.</p>}
      </div>
      <Button
        appearance="subtle"
        icon={<DismissIcon />}
        aria-label={`Close details of ${property.name}`}
        className={styles.close}
        onClick={onClose}
      />
    </div>
  );
}

export interface PropertiesByLocationProps {
  properties: readonly PublicProperty[];
  openId: number | null;
  onOpenChange: (id: number | null) => void;
}

/**
 * 'Properties by Location' (spec): the visible properties by state, states alphabetically, a
 * count per state. An entry opens its detail card right below it; closing the card (its close
 * button or Escape) returns focus to the entry.
 */
export function PropertiesByLocation({ properties, openId, onOpenChange }: PropertiesByLocationProps) {
  const styles = useStyles();
  const idPrefix = useId();
  const entryRefs = useRef(new Map<number, HTMLButtonElement>());
  const groups = groupByState(properties);

  const close = (id: number) => {
    onOpenChange(null);
    entryRefs.current.get(id)?.focus();
  };

  return (
    <section aria-labelledby={`${idPrefix}-heading`}>
      <h2 id={`${idPrefix}-heading`} className={styles.heading}>
        Properties by Location
      </h2>
      {groups.length === 0 ? (
        <p className={styles.empty}>{publicMessages.emptyPropertyList}</p>
      ) : (
        <ul className={styles.states}>
          {groups.map((group) => (
            <li key={group.state} className={styles.state} data-state={group.state}>
              <h3 className={styles.stateHeading}>
                {group.state}{' '}
                <span className={styles.stateCount}>({group.properties.length})</span>
              </h3>
              <ul className={styles.entries}>
                {group.properties.map((property) => {
                  const open = property.id === openId;
                  const cardId = `${idPrefix}-card-${property.id}`;
                  const sold = property.status === 'sold';
                  return (
                    <li key={property.id}>
                      <button
                        type="button"
                        ref={(element) => {
                          if (element) entryRefs.current.set(property.id, element);
                          else entryRefs.current.delete(property.id);
                        }}
                        aria-expanded={open}
                        aria-controls={open ? cardId : undefined}
                        className={mergeClasses(styles.entry, open && styles.entryOpen, sold && styles.sold)}
                        onClick={() => onOpenChange(open ? null : property.id)}
                      >
                        <span>{property.name}</span>
                        {sold && <SoldTag />}
                      </button>
                      {open && (
                        <DetailCard property={property} id={cardId} onClose={() => close(property.id)} />
                      )}
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
