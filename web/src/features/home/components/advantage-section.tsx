import { makeStyles, tokens } from '@fluentui/react-components';
import { siteContent } from '@everest/fixtures/content';
import { NavButton } from '../../../components/navigation/nav-button';
import { SectionHeading } from '../../../components/ui/section-heading';
import { InfoCard } from './info-card';

const { advantage } = siteContent;

const useStyles = makeStyles({
  list: {
    display: 'grid',
    gap: tokens.spacingHorizontalXL,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    '@media (min-width: 960px)': { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
  },
  footer: { display: 'flex', justifyContent: 'center', marginTop: tokens.spacingVerticalXXL },
});

/** Our Competitive Advantage (anchor advantage): three cards and a link to the full page. */
export default function AdvantageSection() {
  const styles = useStyles();
  return (
    <>
      <SectionHeading id="advantage-title" title={advantage.heading} subtitle={advantage.subtitle} />
      <ul className={styles.list}>
        {advantage.cards.map((card) => (
          <InfoCard key={card.title} icon={card.icon} title={card.title} description={card.description} />
        ))}
      </ul>
      <div className={styles.footer}>
        <NavButton appearance="outline" size="large" target={{ kind: 'page', to: '/competitive-advantage' }}>
          {advantage.linkLabel}
        </NavButton>
      </div>
    </>
  );
}
