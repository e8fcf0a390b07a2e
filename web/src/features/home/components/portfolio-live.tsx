import { useEffect } from 'react';
import { publicMessages } from '@everest/core/domain';
import { useProperties } from '../../../lib/properties-query';
import { QueryProvider } from '../../../lib/query-provider';
import { carouselProperties } from '../utils/portfolio';
import { CarouselSkeleton } from './carousel-skeleton';
import { portfolioCounts } from './portfolio-cards';
import { PropertyCarousel } from './property-carousel';

// Spec: how a page reacts to a failed request is "not shown"; the section says so in place.
const loadFailed = 'Our properties could not be loaded. Please try again later.';

interface PortfolioLiveProps {
  /** Hands the section the cards' counts of the list loaded (the section draws the cards). */
  onCounts: (counts: number[]) => void;
}

/**
 * The part of the portfolio section that needs the property list: the carousel, and the cards'
 * counts. A chunk of its own (the API client, its schemas and embla), mounted as the section
 * nears the screen.
 */
export default function PortfolioLive(props: PortfolioLiveProps) {
  return (
    <QueryProvider>
      <PortfolioLiveContent {...props} />
    </QueryProvider>
  );
}

function PortfolioLiveContent({ onCounts }: PortfolioLiveProps) {
  const { data, isPending, isError } = useProperties();
  useEffect(() => {
    if (data) onCounts(portfolioCounts(data));
  }, [data, onCounts]);
  if (isPending || isError) return <CarouselSkeleton message={isError ? loadFailed : publicMessages.loadingProperties} />;
  return <PropertyCarousel properties={carouselProperties(data)} />;
}
