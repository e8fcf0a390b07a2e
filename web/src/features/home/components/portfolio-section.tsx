import { Suspense, lazy, useState } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { publicMessages } from '@everest/core/domain';
import { siteContent } from '@everest/fixtures/content';
import { NavButton } from '../../../components/navigation/nav-button';
import { SectionHeading } from '../../../components/ui/section-heading';
import { useNearViewport } from '../../../components/ui/use-near-viewport';
import { pageData } from '../../../lib/page-data';
import { CarouselSkeleton } from './carousel-skeleton';
import { PortfolioCards, portfolioCounts } from './portfolio-cards';

const PortfolioLive = lazy(() => import('./portfolio-live'));
const { portfolio } = siteContent;

const useStyles = makeStyles({
  footer: { display: 'flex', justifyContent: 'center', marginTop: tokens.spacingVerticalXXL },
});

/** The cards' counts from the list the page's HTML carries (the server rendered it), if any. */
function embeddedCounts(): number[] | null {
  const properties = pageData().properties;
  return properties ? portfolioCounts(properties) : null;
}

const skeleton = <CarouselSkeleton message={publicMessages.loadingProperties} />;

/**
 * Portfolio (anchor portfolio): two cards with live counts, the carousel, a link to the list.
 * The cards stay the same elements from the first paint on, whatever loads around them: a link
 * replaced between a reader's press and release loses the click (it happened, under load, as
 * the carousel's chunk arrived).
 */
export default function PortfolioSection() {
  const styles = useStyles();
  const [ref, near] = useNearViewport<HTMLDivElement>();
  const [counts, setCounts] = useState(embeddedCounts);
  return (
    <>
      <SectionHeading id="portfolio-title" title={portfolio.heading} subtitle={portfolio.subtitle} />
      <div ref={ref}>
        <PortfolioCards counts={counts} />
        {near ? (
          <Suspense fallback={skeleton}>
            <PortfolioLive onCounts={setCounts} />
          </Suspense>
        ) : (
          skeleton
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
