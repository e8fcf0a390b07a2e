import { publicMessages } from '@everest/core/domain';
import { siteContent } from '@everest/fixtures/content';
import { useProperties } from '../../../lib/properties-query';
import { QueryProvider } from '../../../lib/query-provider';
import { propertyFilterCounts } from '../../../lib/property-list';
import { carouselProperties } from '../utils/portfolio';
import { CarouselSkeleton } from './carousel-skeleton';
import { PortfolioCards } from './portfolio-cards';
import { PropertyCarousel } from './property-carousel';

// Spec: how a page reacts to a failed request is "not shown"; the section says so in place.
const loadFailed = 'Our properties could not be loaded. Please try again later.';

/**
 * The part of the portfolio section that needs the property list: the cards' counts and the
 * carousel. A chunk of its own (the API client, its schemas and embla), mounted as the section
 * nears the screen.
 */
export default function PortfolioLive() {
  return (
    <QueryProvider>
      <PortfolioLiveContent />
    </QueryProvider>
  );
}

function PortfolioLiveContent() {
  const { data, isPending, isError } = useProperties();
  if (isPending || isError) {
    return (
      <>
        <PortfolioCards counts={null} />
        <CarouselSkeleton message={isError ? loadFailed : publicMessages.loadingProperties} />
      </>
    );
  }
  const filterCounts = propertyFilterCounts(data);
  const counts = siteContent.portfolio.cards.map((card) => filterCounts[card.filter]);
  return (
    <>
      <PortfolioCards counts={counts} />
      <PropertyCarousel properties={carouselProperties(data)} />
    </>
  );
}
