import { makeStyles, tokens } from '@fluentui/react-components';
import { siteContent } from '@everest/fixtures/content';
import { NavButton } from '../../../components/navigation/nav-button';
import { SectionHeading } from '../../../components/ui/section-heading';
import { everestBrand } from '../../../lib/theme';
import { InfoCard } from './info-card';

const { investorServices } = siteContent;

const useStyles = makeStyles({
  layout: {
    display: 'grid',
    gap: tokens.spacingHorizontalXXXL,
    alignItems: 'start',
    '@media (min-width: 960px)': { gridTemplateColumns: '2fr 3fr' },
  },
  intro: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalL,
  },
  body: { margin: 0, fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400 },
  listHeading: {
    margin: `0 0 ${tokens.spacingVerticalL}`,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase600,
    lineHeight: tokens.lineHeightBase600,
    fontWeight: tokens.fontWeightSemibold,
  },
  list: {
    display: 'grid',
    gap: tokens.spacingVerticalM,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    '@media (min-width: 640px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
  },
});

/** Investor Services (anchor investor): who we work with, Contact Us, the opportunities. */
export default function InvestorSection() {
  const styles = useStyles();
  return (
    <>
      <SectionHeading id="investor-title" title={investorServices.heading} subtitle={investorServices.subtitle} />
      <div className={styles.layout}>
        <div className={styles.intro}>
          <p className={styles.body}>{investorServices.body}</p>
          <NavButton appearance="primary" size="large" target={{ kind: 'section', section: 'contact' }}>
            {investorServices.contactButton}
          </NavButton>
        </div>
        <div>
          <h3 className={styles.listHeading}>{investorServices.opportunitiesHeading}</h3>
          <ul className={styles.list}>
            {investorServices.opportunities.map((item) => (
              <InfoCard key={item.title} icon={item.icon} title={item.title} description={item.description} layout="row" />
            ))}
          </ul>
        </div>
      </div>
    </>
  );
}
