import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { accentGold, everestBrand } from '../../lib/theme';
import { NavThemeProvider } from './nav-theme-provider';
import { NavAnchor } from './nav-anchor';
import { pageItem, sectionItem, type NavItem } from './nav-items';

// Spec (footer): /, About Us, /competitive-advantage, /management-team,
// /significant-transactions, Portfolio, /properties, /property-map, Investor Services. About
// Us, Portfolio and Investor Services are the home page's anchors about, portfolio, investor.
const columns: readonly { heading: NavItem; items: readonly NavItem[] }[] = [
  {
    heading: pageItem('Home', '/'),
    items: [],
  },
  {
    heading: sectionItem('About Us', 'about'),
    items: [
      pageItem('Competitive Advantage', '/competitive-advantage'),
      pageItem('Management Team', '/management-team'),
      pageItem('Significant Transactions', '/significant-transactions'),
    ],
  },
  {
    heading: sectionItem('Portfolio', 'portfolio'),
    items: [pageItem('Properties', '/properties'), pageItem('Property Map', '/property-map')],
  },
  {
    heading: sectionItem('Investor Services', 'investor'),
    items: [],
  },
];

const useStyles = makeStyles({
  provider: {
    backgroundColor: everestBrand[20],
    color: tokens.colorNeutralForeground2,
  },
  inner: {
    boxSizing: 'border-box',
    maxWidth: '1200px',
    margin: '0 auto',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL} ${tokens.spacingVerticalL}`,
  },
  top: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalXXL,
  },
  brandBlock: { flex: '1 1 220px' },
  nav: {
    flex: '3 1 480px',
    minWidth: 0,
    display: 'grid',
    gap: tokens.spacingHorizontalXL,
    gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))',
  },
  brand: {
    margin: 0,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
  },
  tagline: { margin: `${tokens.spacingVerticalXS} 0 0`, fontSize: tokens.fontSizeBase200 },
  list: { listStyleType: 'none', margin: 0, padding: 0 },
  headingLink: {
    display: 'inline-block',
    padding: `${tokens.spacingVerticalXS} 0`,
    color: accentGold.onDark,
    fontSize: tokens.fontSizeBase300,
    fontWeight: tokens.fontWeightSemibold,
  },
  link: {
    display: 'inline-block',
    padding: `${tokens.spacingVerticalXS} 0`,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase300,
  },
  anyLink: {
    textDecorationLine: 'none',
    borderRadius: tokens.borderRadiusSmall,
    ':hover': { textDecorationLine: 'underline', color: tokens.colorNeutralForeground1 },
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: accentGold.onDark,
      outlineOffset: '2px',
    },
  },
  copyright: {
    margin: `${tokens.spacingVerticalXXL} 0 0`,
    paddingTop: tokens.spacingVerticalL,
    borderTop: `1px solid ${everestBrand[50]}`,
    fontSize: tokens.fontSizeBase200,
  },
});

export function SiteFooter() {
  const styles = useStyles();
  const year = new Date().getFullYear();
  return (
    <footer>
      <NavThemeProvider className={styles.provider}>
        <div className={styles.inner}>
          <div className={styles.top}>
            <div className={styles.brandBlock}>
              <p className={styles.brand}>Everest Properties</p>
              <p className={styles.tagline}>A Privately-Held, Real Estate Investment Firm</p>
            </div>
            <nav aria-label="Footer" className={styles.nav}>
              {columns.map(({ heading, items }) => (
                <ul key={heading.label} className={styles.list}>
                  <li>
                    <NavAnchor item={heading} className={mergeClasses(styles.headingLink, styles.anyLink)} />
                    {items.length > 0 && (
                      <ul className={styles.list}>
                        {items.map((item) => (
                          <li key={item.label}>
                            <NavAnchor item={item} className={mergeClasses(styles.link, styles.anyLink)} />
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                </ul>
              ))}
            </nav>
          </div>
          <p className={styles.copyright}>
            © {year} Everest Properties. All rights reserved.
          </p>
        </div>
      </NavThemeProvider>
    </footer>
  );
}
