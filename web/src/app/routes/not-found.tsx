import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { useLocation, useNavigate } from '../../lib/router';
import { NavAnchor } from '../../components/layout/nav-anchor';
import { pageItem, sectionItem } from '../../components/layout/nav-items';
import { NavButton } from '../../components/navigation/nav-button';
import { PageContainer } from '../../components/ui/page-container';
import { ArrowLeftIcon } from '../../components/ui/icons';

const helpfulLinks = [
  { item: pageItem('Investor Portal', '/investor-services'), hint: 'Sign in to your documents' },
  { item: pageItem('Transaction History', '/significant-transactions'), hint: 'Significant transactions' },
  { item: pageItem('Investment Strategy', '/competitive-advantage'), hint: 'Our competitive advantage' },
  { item: pageItem('Leadership Team', '/management-team'), hint: 'Management team' },
  { item: sectionItem('Contact', 'contact'), hint: 'Reach our investment team' },
  { item: pageItem('Property Portfolio', '/portfolio'), hint: 'All of our properties' },
];

const useStyles = makeStyles({
  lead: { margin: `0 0 ${tokens.spacingVerticalXL}`, fontSize: tokens.fontSizeBase400 },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    marginBottom: tokens.spacingVerticalXXL,
  },
  subheading: {
    margin: `0 0 ${tokens.spacingVerticalM}`,
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
  },
  list: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
    gap: tokens.spacingHorizontalM,
    listStyleType: 'none',
    margin: `0 0 ${tokens.spacingVerticalXXL}`,
    padding: 0,
  },
  link: {
    display: 'block',
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorBrandForegroundLink,
    fontWeight: tokens.fontWeightSemibold,
    textDecorationLine: 'none',
    ':hover': {
      backgroundColor: tokens.colorNeutralBackground1Hover,
      textDecorationLine: 'underline',
    },
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: tokens.colorStrokeFocus2,
      outlineOffset: '2px',
    },
  },
  hint: {
    display: 'block',
    marginTop: tokens.spacingVerticalXXS,
    color: tokens.colorNeutralForeground2,
    fontWeight: tokens.fontWeightRegular,
    fontSize: tokens.fontSizeBase200,
  },
});

function useGoBack() {
  const navigate = useNavigate();
  const { key } = useLocation();
  // The router gives the entry the app started on the key 'default': from there, "back"
  // would leave the site (or do nothing), so it goes home instead.
  // A reader who mistyped an address arrives on a fresh load (key 'default') although the page
  // before it is ours: the Navigation API lists the tab's same-origin entries, so canGoBack says
  // whether the browser's Back would stay on the site.
  return () => {
    if (key !== 'default') void navigate(-1);
    else if ((window as { navigation?: { canGoBack?: boolean } }).navigation?.canGoBack) window.history.back();
    else void navigate('/');
  };
}

export default function NotFoundRoute() {
  const styles = useStyles();
  const goBack = useGoBack();
  return (
    // The catalogue's publicMessages.pageNotFound, written out: this page is in the entry chunk,
    // and importing core's messages there would bring all of them (1.4 kB gzip). The navigation
    // bar's test compares the heading with core's text.
    <PageContainer title="Page Not Found">
      <p className={styles.lead}>
        The page you are looking for does not exist or has moved.
      </p>
      <div className={styles.actions}>
        <NavButton appearance="primary" target={{ kind: 'page', to: '/' }}>
          Home
        </NavButton>
        <NavButton target={{ kind: 'page', to: '/properties' }}>Properties</NavButton>
        <NavButton target={{ kind: 'page', to: '/property-map' }}>Property Map</NavButton>
        <Button icon={<ArrowLeftIcon />} onClick={goBack}>
          Go Back
        </Button>
      </div>
      <h2 className={styles.subheading}>Popular pages</h2>
      <ul className={styles.list}>
        {helpfulLinks.map(({ item, hint }) => (
          <li key={item.label}>
            <NavAnchor item={item} className={styles.link}>
              {item.label}
              <span className={styles.hint}>{hint}</span>
            </NavAnchor>
          </li>
        ))}
      </ul>
      <h2 className={styles.subheading}>Still need help?</h2>
      <p>Our investment team is happy to help you find what you need.</p>
      <NavButton appearance="primary" target={{ kind: 'section', section: 'contact' }}>
        Contact Us
      </NavButton>
    </PageContainer>
  );
}
