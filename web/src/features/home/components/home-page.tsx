import { Fragment, lazy, type ReactNode } from 'react';
import { HeroSection } from './hero-section';
import { HomeSection, type SectionTone } from './home-section';
import { SectionDivider } from './section-divider';

// The bodies of the sections are chunks of their own (see HomeSection): the server renders them
// all into the HTML, and the entry chunk holds the hero and the sections' frames only, so that
// nothing below the fold delays the browser's start-up.
const AboutSection = lazy(() => import('./about-section'));
const TrackRecordSection = lazy(() => import('./track-record-section'));
const PortfolioSection = lazy(() => import('./portfolio-section'));
const AdvantageSection = lazy(() => import('./advantage-section'));
const InvestorSection = lazy(() => import('./investor-section'));

interface SectionSpec {
  id: string;
  tone: SectionTone;
  reserve: { narrow: string; wide: string };
  body: ReactNode;
}

const sections: SectionSpec[] = [
  // Reserves: the sections' heights measured at 375 and 1280 px.
  { id: 'about', tone: 'plain', reserve: { narrow: '760px', wide: '330px' }, body: <AboutSection /> },
  { id: 'track-record', tone: 'navy', reserve: { narrow: '290px', wide: '195px' }, body: <TrackRecordSection /> },
  { id: 'portfolio', tone: 'tinted', reserve: { narrow: '1130px', wide: '980px' }, body: <PortfolioSection /> },
  { id: 'advantage', tone: 'plain', reserve: { narrow: '900px', wide: '420px' }, body: <AdvantageSection /> },
  { id: 'investor', tone: 'tinted', reserve: { narrow: '900px', wide: '470px' }, body: <InvestorSection /> },
];

/**
 * The home page: hero, About, Proven Track Record, Portfolio, Our Competitive Advantage,
 * Investor Services, then the contact section (another feature's, passed in), with the divider
 * image between the sections.
 */
export function HomePage({ contactSection }: { contactSection: ReactNode }) {
  return (
    <>
      <HeroSection />
      {sections.map(({ id, tone, reserve, body }, index) => (
        <Fragment key={id}>
          {index > 0 && <SectionDivider />}
          <HomeSection id={id} tone={tone} reserve={reserve}>
            {body}
          </HomeSection>
        </Fragment>
      ))}
      <SectionDivider />
      {contactSection}
    </>
  );
}
