import { useId, useState } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Link, useLocation, useNavigationType, useSearchParams } from '../../../lib/router';
import { publicMessages } from '@everest/core/domain';
import { PageContainer } from '../../../components/ui/page-container';
import { VisuallyHidden } from '../../../components/ui/visually-hidden';
import { useRevealedCount } from '../../../hooks/use-revealed-count';
import { useHydrated } from '../../../components/ui/use-hydrated';
import { useProperties } from '../../../lib/properties-query';
import { everestBrand } from '../../../lib/theme';
import type { ScrollState } from '../../../lib/scroll';
import {
  isFilterButtonSelected,
  parsePropertyListFilter,
  propertyFilterCounts,
  propertyGroups,
  propertyListFilterLabels,
  propertyFilterButtons,
  type PropertyFilterButton,
} from '../../../lib/property-list';
import { useFilterPillStyles } from './filter-pill-styles';
import { PageIntro } from './page-intro';
import { PropertyCard } from './property-card';
import { LoadFailure, LoadingText } from './query-status';

// Only the first card's photo is fetched from the HTML, with high priority: it is the page's
// largest paint, and on a phone the only card in view. The others are lazy: those in view on a
// wide screen start as soon as the page is laid out, the rest as the reader scrolls to them.
const eagerImageCount = 1;

// When the list arrives, six cards come at once (the first two rows of a wide screen), then a
// few more in each following task (hooks/use-revealed-count.ts): one commit of all 25 cards was
// a task of about 75 ms on this machine, 300 ms on a throttled phone, the list's largest
// blocking time. Arriving by a link, with the list already loaded, goes the same way, so that
// the click answers quickly. Back or forward to the page with the list loaded renders it whole,
// so that the scroll position restored there finds the page at its full height.
const cardsRevealed = { first: 6, batch: 4 };
const allCards = { first: Number.POSITIVE_INFINITY, batch: 0 };

const useStyles = makeStyles({
  group: { marginBottom: tokens.spacingVerticalXXXL },
  groupHeading: {
    display: 'flex',
    alignItems: 'baseline',
    gap: tokens.spacingHorizontalS,
    margin: `0 0 ${tokens.spacingVerticalL}`,
    paddingBottom: tokens.spacingVerticalS,
    borderBottom: `2px solid ${everestBrand[150]}`,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase600,
    lineHeight: tokens.lineHeightBase600,
    fontWeight: tokens.fontWeightSemibold,
  },
  groupCount: {
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase300,
    fontWeight: tokens.fontWeightRegular,
  },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 280px), 1fr))',
    gap: tokens.spacingHorizontalXL,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  // A card out of view is laid out only as it comes near, so that its photo, lazy as it is,
  // does not start with the first ones: a phone's copy of a camera photo is 100-200 KB, and the
  // next five cards' shared the page's first seconds with the first card's, its largest paint.
  // The placeholder height is a card's usual one; its real height, once laid out, is kept. Not
  // when back restores a place in the list: the position saved needs the cards' real heights.
  laterCard: { contentVisibility: 'auto', containIntrinsicBlockSize: 'auto 400px' },
  empty: {
    margin: 0,
    padding: `${tokens.spacingVerticalXXL} 0`,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase400,
    textAlign: 'center',
  },
});

function FilterLink({
  filter,
  count,
  selected,
}: {
  filter: PropertyFilterButton;
  count: number | undefined;
  selected: boolean;
}) {
  const pills = useFilterPillStyles();
  const { pathname } = useLocation();
  // /portfolio stays /portfolio; 'all' is the page without a query, as the navigation links it.
  const to = { pathname, search: filter === 'all' ? '' : `?filter=${filter}` };
  // A filter change is a new history entry (back returns to the previous filter) that keeps
  // the reader where they are on the page.
  const state: ScrollState = { keepScroll: true };
  return (
    <Link
      to={to}
      state={state}
      aria-current={selected ? 'page' : undefined}
      className={mergeClasses(pills.pill, selected && pills.selected)}
    >
      {propertyListFilterLabels[filter]}
      <span className={pills.count}>{count === undefined ? '' : `(${count})`}</span>
    </Link>
  );
}

/** /properties and /portfolio: 'Our Property Portfolio' (spec: public site, section 2). */
export function PropertiesPage() {
  const styles = useStyles();
  const pills = useFilterPillStyles();
  const headingPrefix = useId();
  const [searchParams] = useSearchParams();
  const filter = parsePropertyListFilter(searchParams.get('filter'));
  const { data, isPending, isError, refetch } = useProperties();

  const counts = data ? propertyFilterCounts(data) : undefined;
  const groups = data ? propertyGroups(data, filter) : [];
  const shown = groups.reduce((sum, group) => sum + group.properties.length, 0);
  const order = groups.flatMap((group) => group.properties.map((p) => p.id));
  const eagerIds = new Set(order.slice(0, eagerImageCount));
  // A first load is a POP too, but without the list at mount.
  const navigationType = useNavigationType();
  const [restoringPlace] = useState(data !== undefined && navigationType === 'POP');
  // Cards out of view wait to be laid out (laterCard) but when back restores a place. The
  // server's page has the list at mount as a restored one has, but no place to restore.
  const hydrated = useHydrated();
  const [deferLaterCards] = useState(!restoringPlace || !hydrated);
  const revealed = useRevealedCount(order.length, restoringPlace ? allCards : cardsRevealed);
  const revealedIds = new Set(order.slice(0, revealed));

  return (
    <PageContainer title="Our Property Portfolio">
      <PageIntro>
        Apartment communities, self-storage facilities and retail centers that Everest owns and
        manages today.
      </PageIntro>
      <nav aria-label="Filter properties by type">
        <ul className={pills.bar}>
          {propertyFilterButtons.map((f) => (
            <li key={f}>
              <FilterLink filter={f} count={counts?.[f]} selected={isFilterButtonSelected(f, filter)} />
            </li>
          ))}
        </ul>
      </nav>
      <VisuallyHidden>
        <span aria-live="polite">
          {data ? `${shown} ${shown === 1 ? 'property' : 'properties'} shown.` : ''}
        </span>
      </VisuallyHidden>
      {isPending ? (
        <LoadingText text={publicMessages.loadingProperties} />
      ) : isError ? (
        <LoadFailure onRetry={() => void refetch()} />
      ) : groups.length === 0 ? (
        <p className={styles.empty}>{publicMessages.emptyPropertyList}</p>
      ) : (
        groups.map((group) => {
          const headingId = `${headingPrefix}-${group.type}`;
          const cards = group.properties.filter((property) => revealedIds.has(property.id));
          if (cards.length === 0) return null;
          return (
            <section key={group.type} aria-labelledby={headingId} className={styles.group}>
              <h2 id={headingId} className={styles.groupHeading}>
                {group.label}{' '}
                <span className={styles.groupCount}>
                  {group.properties.length === 1 ? '1 property' : `${group.properties.length} properties`}
                </span>
              </h2>
              <ul className={styles.grid}>
                {cards.map((property) => (
                  <li key={property.id} className={deferLaterCards ? styles.laterCard : undefined}>
                    <PropertyCard
                      property={property}
                      lazyImage={!eagerIds.has(property.id)}
                      priorityImage={property.id === order[0]}
                    />
                  </li>
                ))}
              </ul>
            </section>
          );
        })
      )}
    </PageContainer>
  );
}
