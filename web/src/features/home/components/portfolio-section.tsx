import { Suspense, lazy } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { publicMessages } from '@everest/core/domain';
import { siteContent } from '@everest/fixtures/content';
import { NavButton } from '../../../components/navigation/nav-button';
import { SectionHeading } from '../../../components/ui/section-heading';
import { useNearViewport } from '../../../components/ui/use-near-viewport';
import { pageData } from '../../../lib/page-data';
import { propertyFilterCounts } from '../../../lib/property-list';
import { CarouselSkeleton } from './carousel-skeleton';
import { PortfolioCards } from './portfolio-cards';

const PortfolioLive = lazy(() => import('./portfolio-live'));
const { portfolio } = siteContent;

const useStyles = makeStyles({
  footer: { display: 'flex', justifyContent: 'center', marginTop: tokens.spacingVerticalXXL },
});

/** The cards' counts from the list the page's HTML carries (the server rendered it), if any. */
function embeddedCounts(): number[] | null {
  const properties = pageData().properties;
  if (!properties) return null;
  const filterCounts = propertyFilterCounts(properties);
  return portfolio.cards.map((card) => filterCounts[card.filter]);
}

function Placeholder() {
  return (
    <>
      <PortfolioCards counts={embeddedCounts()} />
      <CarouselSkeleton message={publicMessages.loadingProperties} />
    </>
  );
}

/** Portfolio (anchor portfolio): two cards with live counts, the carousel, a link to the list. */
export default function PortfolioSection() {
  const styles = useStyles();
  const [ref, near] = useNearViewport<HTMLDivElement>();
  return (
    <>
      <SectionHeading id="portfolio-title" title={portfolio.heading} subtitle={portfolio.subtitle} />
      <div ref={ref}>
        {near ? (
          <Suspense fallback={<Placeholder />}>
            <PortfolioLive />
          </Suspense>
        ) : (
          <Placeholder />
        )}
      </div>
      <div className={styles.footer}>
        <NavButton appearance="primary" size="large" target={{ kind: 'page', to: '/properties' }}>
          {portfolio.viewAllLabel}
        </NavButton>
      </div>
    </>
  );
}
