import { useEffect, useState } from 'react';
import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Link, useLocation } from '../../lib/router';
import { accentGold, everestBrand } from '../../lib/theme';
import { NavThemeProvider } from './nav-theme-provider';
import { EverestMark, HamburgerIcon } from '../ui/icons';
import { OnDemand } from '../ui/on-demand';
import { useReaderEngaged } from '../ui/use-reader-engaged';
import { DesktopNavMenu } from './desktop-nav-menu';
import { NavAnchor } from './nav-anchor';
import {
  aboutMenu,
  contactItem,
  homeItem,
  investorServicesItem,
  navGroupFor,
  portfolioMenu,
} from './nav-items';
import { useNavLinkStyles } from './nav-styles';

// The slide-out panel (Fluent Drawer and its motion) is a chunk of its own: desktop readers
// never load it, narrow screens fetch it when idle or as the finger lands on the button.
const loadMobileNav = () => import('./mobile-nav').then((module) => module.MobileNav);

// Marks ☰ as where focus goes back to when the panel closes (the panel has no DialogTrigger):
// the attribute that Fluent's useRestoreFocusTarget() returns, written out. The hook would also
// start tabster, Fluent's focus manager (12 KB gzip), with every page; the panel's chunk starts
// it instead, while ☰ still has the focus, which tabster takes as the place to return to.
const restoreFocusTarget = { 'data-tabster': JSON.stringify({ restorer: { type: 1 } }) };

const headerHeightPx = 64;
const mobileMedia = '(max-width: 767.98px)';
const mobileQuery = `@media ${mobileMedia}`;
const desktopQuery = '@media (min-width: 768px)';

const useStyles = makeStyles({
  header: {
    position: 'sticky',
    top: 0,
    zIndex: 100,
    boxShadow: tokens.shadow4,
  },
  provider: {
    backgroundColor: everestBrand[20],
    color: tokens.colorNeutralForeground1,
  },
  bar: {
    boxSizing: 'border-box',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    maxWidth: '1200px',
    height: `${headerHeightPx}px`,
    margin: '0 auto',
    padding: `0 ${tokens.spacingHorizontalL}`,
  },
  brand: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    minWidth: 0,
    color: tokens.colorNeutralForeground1,
    textDecorationLine: 'none',
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    whiteSpace: 'nowrap',
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: accentGold.onDark,
      outlineOffset: '4px',
    },
  },
  brandMark: { color: accentGold.onDark, flexShrink: 0 },
  nav: { display: 'flex', alignItems: 'center' },
  list: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    [mobileQuery]: { display: 'none' },
  },
  hamburger: {
    [desktopQuery]: { display: 'none' },
  },
});

/** The sticky navigation bar: dropdowns on desktop, a slide-out panel below 768 px. */
export function SiteHeader() {
  const styles = useStyles();
  const linkStyles = useNavLinkStyles();
  const location = useLocation();
  const group = navGroupFor(location.pathname);
  // The panel belongs to the history entry it was opened on, so any navigation (a link in it,
  // back, forward) closes it.
  const [mobileOpenedAt, setMobileOpenedAt] = useState<string | null>(null);
  const mobileOpen = mobileOpenedAt === location.key;
  const setMobileOpen = (open: boolean) => setMobileOpenedAt(open ? location.key : null);
  const [mobileNavWanted, setMobileNavWanted] = useState(false);

  // On narrow screens the panel's chunk is fetched once the reader starts to use the page (long
  // before a tap on the button), not on load: evaluating it (Fluent's Drawer, motion, focus
  // trap) would block the main thread while the page is still starting.
  const engaged = useReaderEngaged();
  useEffect(() => {
    if (engaged && typeof window.matchMedia === 'function' && window.matchMedia(mobileMedia).matches) {
      void loadMobileNav();
    }
  }, [engaged]);

  const linkClass = (active: boolean) => mergeClasses(linkStyles.link, active && linkStyles.activeGroup);

  return (
    <header className={styles.header}>
      <NavThemeProvider className={styles.provider}>
        <div className={styles.bar}>
          <Link to="/" className={styles.brand} aria-label="Everest Properties, home">
            <EverestMark className={styles.brandMark} />
            <span>Everest Properties</span>
          </Link>
          <nav aria-label="Main" className={styles.nav}>
            <ul className={styles.list}>
              <li>
                <NavAnchor item={homeItem} className={linkClass(group === 'home')} />
              </li>
              <li>
                <DesktopNavMenu menu={aboutMenu} active={group === 'about'} />
              </li>
              <li>
                <DesktopNavMenu menu={portfolioMenu} active={group === 'portfolio'} />
              </li>
              <li>
                <NavAnchor
                  item={investorServicesItem}
                  className={linkClass(group === 'investor')}
                />
              </li>
              <li>
                <NavAnchor item={contactItem} className={linkClass(false)} />
              </li>
            </ul>
            <Button
              className={styles.hamburger}
              appearance="subtle"
              size="large"
              icon={<HamburgerIcon />}
              aria-label="Open navigation menu"
              {...restoreFocusTarget}
              aria-haspopup="dialog"
              aria-expanded={mobileOpen}
              onPointerDown={() => void loadMobileNav()}
              onClick={() => {
                setMobileNavWanted(true);
                setMobileOpen(true);
              }}
            />
          </nav>
        </div>
        {mobileNavWanted && <OnDemand load={loadMobileNav} props={{ open: mobileOpen, onOpenChange: setMobileOpen }} />}
      </NavThemeProvider>
    </header>
  );
}
