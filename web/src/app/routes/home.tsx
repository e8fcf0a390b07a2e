import { lazy } from 'react';
import { HomePage } from '../../features/home/components/home-page';
import { HomeSection } from '../../features/home/components/home-section';
import { useDocumentTitle } from '../../hooks/use-document-title';

const ContactSection = lazy(() => import('../../features/contact/components/contact-section'));

// Made once: the same element on every render, so that the memoised section is not rendered
// again while it waits to be hydrated (HomeSection).
const contactSection = (
  <HomeSection id="contact" tone="tinted" reserve={{ narrow: '1650px', wide: '950px' }}>
    <ContactSection />
  </HomeSection>
);

export default function HomeRoute() {
  useDocumentTitle();
  return <HomePage contactSection={contactSection} />;
}
