import { makeStyles, tokens } from '@fluentui/react-components';
import type { PublicProperty } from '@everest/core/contract';
import { siteContent } from '@everest/fixtures/content';
import { NavButton } from '../../../components/navigation/nav-button';
import { propertyFilterCounts } from '../../../lib/property-list';
import { accentGold, everestBrand } from '../../../lib/theme';

const { portfolio } = siteContent;
export type PortfolioCard = (typeof portfolio.cards)[number];

/** The number of active properties each card counts, in the cards' order. */
export function portfolioCounts(properties: readonly PublicProperty[]): number[] {
  const filterCounts = propertyFilterCounts(properties);
  return portfolio.cards.map((card) => filterCounts[card.filter]);
}

const useStyles = makeStyles({
  list: {
    display: 'grid',
    gap: tokens.spacingHorizontalXL,
    listStyleType: 'none',
    margin: `0 0 ${tokens.spacingVerticalXXXL}`,
    padding: 0,
    '@media (min-width: 768px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalXXL,
    borderRadius: tokens.borderRadiusXLarge,
    borderTop: `4px solid ${accentGold.onLight}`,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow8,
  },
  title: {
    margin: 0,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase600,
    lineHeight: tokens.lineHeightBase600,
    fontWeight: tokens.fontWeightSemibold,
  },
  description: { margin: 0, color: tokens.colorNeutralForeground2, flexGrow: 1 },
  count: {
    display: 'flex',
    alignItems: 'baseline',
    gap: tokens.spacingHorizontalS,
    margin: 0,
    color: tokens.colorNeutralForeground2,
  },
  number: {
    minWidth: '2ch',
    color: everestBrand[30],
    fontSize: tokens.fontSizeHero800,
    lineHeight: tokens.lineHeightHero800,
    fontWeight: tokens.fontWeightBold,
    fontVariantNumeric: 'tabular-nums',
  },
  action: { alignSelf: 'flex-start' },
});

/**
 * The two portfolio cards. `counts` holds the number of active properties per card, in the
 * cards' order, or null while the properties load (the figure then shows a dash).
 */
export function PortfolioCards({ counts }: { counts: readonly number[] | null }) {
  const styles = useStyles();
  return (
    <ul className={styles.list}>
      {portfolio.cards.map((card, index) => {
        const titleId = `portfolio-card-${card.filter}`;
        const count = counts?.[index];
        return (
          <li key={card.title} className={styles.card}>
            <h3 id={titleId} className={styles.title}>
              {card.title}
            </h3>
            <p className={styles.description}>{card.description}</p>
            <p className={styles.count} aria-busy={count === undefined}>
              <span className={styles.number} data-testid={`portfolio-count-${card.filter}`}>
                {count ?? '–'}
              </span>
              <span>Active Properties</span>
            </p>
            <NavButton
              appearance="primary"
              className={styles.action}
              target={{ kind: 'page', to: `/properties?filter=${card.filter}` }}
              aria-describedby={titleId}
            >
              {portfolio.viewPropertiesLabel}
            </NavButton>
          </li>
        );
      })}
    </ul>
  );
}
