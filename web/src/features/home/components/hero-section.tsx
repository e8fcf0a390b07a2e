import { useRef } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import heroUrl from '@everest/fixtures/files/site/hero.svg';
import { siteFacts } from '@everest/fixtures/site';
import { NavButton } from '../../../components/navigation/nav-button';
import { accentGold, everestBrand } from '../../../lib/theme';
import { useParallax } from '../hooks/use-parallax';
import { homeLabels } from '../home-labels';

// The hero fills the first screen below the 64 px navigation bar, so that the sections below,
// which arrive in their own chunks, never push anything the reader already sees.
const headerHeight = '64px';

const useStyles = makeStyles({
  hero: {
    position: 'relative',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    minHeight: [`calc(100vh - ${headerHeight})`, `calc(100svh - ${headerHeight})`],
    overflow: 'hidden',
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalL}`,
    backgroundColor: everestBrand[20],
    color: '#ffffff',
    textAlign: 'center',
  },
  layer: {
    position: 'absolute',
    inset: 0,
    willChange: 'transform',
  },
  image: {
    display: 'block',
    width: '100%',
    height: '100%',
    objectFit: 'cover',
  },
  // Keeps white text readable (well over 4.5:1) on every part of the picture.
  scrim: {
    position: 'absolute',
    inset: 0,
    backgroundImage: `linear-gradient(180deg, rgba(7, 12, 18, 0.62) 0%, rgba(7, 12, 18, 0.45) 55%, rgba(7, 12, 18, 0.72) 100%)`,
  },
  content: {
    position: 'relative',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalL,
    maxWidth: '880px',
  },
  title: {
    margin: 0,
    fontSize: 'clamp(2.25rem, 7vw, 4.25rem)',
    lineHeight: 1.1,
    fontWeight: tokens.fontWeightBold,
    letterSpacing: '-0.01em',
    textShadow: '0 2px 12px rgba(0, 0, 0, 0.35)',
  },
  rule: {
    display: 'block',
    width: '96px',
    height: '3px',
    backgroundColor: accentGold.onDark,
  },
  tagline: {
    margin: 0,
    fontSize: 'clamp(1.125rem, 3vw, 1.5rem)',
    lineHeight: 1.4,
  },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    justifyContent: 'center',
    gap: tokens.spacingHorizontalM,
    marginTop: tokens.spacingVerticalM,
    // Fluent's focus ring is dark and thin, lost on the picture: a gold ring as the bar's links have.
    '& a:focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: accentGold.onDark,
      outlineOffset: '3px',
    },
  },
  secondary: {
    color: '#ffffff',
    backgroundColor: 'transparent',
    border: '1px solid #ffffff',
    ':hover': { color: everestBrand[20], backgroundColor: '#ffffff' },
    ':hover:active': { color: everestBrand[20], backgroundColor: everestBrand[150] },
  },
});

/** The first screen: the firm's name and tagline on a picture that scrolls with parallax. */
export function HeroSection() {
  const styles = useStyles();
  const layer = useRef<HTMLDivElement>(null);
  useParallax(layer);
  return (
    <section id="home" tabIndex={-1} aria-labelledby="home-title" className={styles.hero}>
      <div ref={layer} className={styles.layer}>
        {/* Decorative: the picture adds nothing the heading does not say. The size attributes
            reserve its box before it loads; index.html preloads it, as it is the largest paint. */}
        <img
          src={heroUrl}
          alt=""
          width={1600}
          height={640}
          fetchPriority="high"
          decoding="async"
          className={styles.image}
        />
      </div>
      <div className={styles.scrim} />
      <div className={styles.content}>
        <h1 id="home-title" className={styles.title}>
          {siteFacts.firmName}
        </h1>
        <span className={styles.rule} aria-hidden />
        <p className={styles.tagline}>{siteFacts.tagline}</p>
        <div className={styles.actions}>
          <NavButton appearance="primary" size="large" target={{ kind: 'page', to: '/properties' }}>
            {homeLabels.viewPortfolio}
          </NavButton>
          <NavButton size="large" className={styles.secondary} target={{ kind: 'section', section: 'contact' }}>
            {homeLabels.investorInquiries}
          </NavButton>
        </div>
      </div>
    </section>
  );
}
