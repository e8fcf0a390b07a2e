import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { NavButton } from '../../components/navigation/nav-button';
import { useGoToSection } from '../../components/navigation/use-nav-target';
import { siteName, siteTagline, useDocumentTitle } from '../../hooks/use-document-title';
import { everestBrand } from '../../lib/theme';

const useStyles = makeStyles({
  hero: {
    display: 'flex',
    flexDirection: 'column',
    justifyContent: 'center',
    gap: tokens.spacingVerticalL,
    minHeight: '60vh',
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalL}`,
    backgroundColor: everestBrand[30],
    color: '#ffffff',
    textAlign: 'center',
  },
  heroTitle: {
    margin: 0,
    fontSize: tokens.fontSizeHero800,
    lineHeight: tokens.lineHeightHero800,
    fontWeight: tokens.fontWeightSemibold,
  },
  tagline: { margin: 0, fontSize: tokens.fontSizeBase500 },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    justifyContent: 'center',
    gap: tokens.spacingHorizontalM,
  },
  section: {
    boxSizing: 'border-box',
    maxWidth: '1200px',
    minHeight: '50vh',
    margin: '0 auto',
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalL}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  heading: {
    margin: `0 0 ${tokens.spacingVerticalM}`,
    color: everestBrand[30],
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
  },
});

// The anchors the navigation bar and the footer scroll to; their content comes with the
// home page content.
const sections = [
  { id: 'about', title: 'About Us' },
  { id: 'portfolio', title: 'Our Portfolio' },
  { id: 'advantage', title: 'Our Competitive Advantage' },
  { id: 'investor', title: 'Investor Services' },
  { id: 'contact', title: 'Contact Us' },
] as const;

export default function HomeRoute() {
  const styles = useStyles();
  const goToSection = useGoToSection();
  useDocumentTitle();
  return (
    <>
      <section id="home" tabIndex={-1} aria-labelledby="home-title" className={styles.hero}>
        <h1 id="home-title" className={styles.heroTitle}>
          {siteName}
        </h1>
        <p className={styles.tagline}>{siteTagline}</p>
        <div className={styles.actions}>
          <NavButton appearance="primary" size="large" target={{ kind: 'page', to: '/properties' }}>
            View Our Portfolio
          </NavButton>
          <Button size="large" onClick={() => goToSection('contact')}>
            Investor Inquiries
          </Button>
        </div>
      </section>
      {sections.map(({ id, title }) => (
        <section
          key={id}
          id={id}
          tabIndex={-1}
          aria-labelledby={`${id}-title`}
          className={styles.section}
        >
          <h2 id={`${id}-title`} className={styles.heading}>
            {title}
          </h2>
        </section>
      ))}
    </>
  );
}
