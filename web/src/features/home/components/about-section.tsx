import { makeStyles, tokens } from '@fluentui/react-components';
import { siteContent } from '@everest/fixtures/content';
import { SectionHeading } from '../../../components/ui/section-heading';
import { accentGold, everestBrand } from '../../../lib/theme';

const { about } = siteContent;

const useStyles = makeStyles({
  layout: {
    display: 'grid',
    gap: tokens.spacingHorizontalXXXL,
    alignItems: 'center',
    '@media (min-width: 960px)': { gridTemplateColumns: '3fr 2fr' },
  },
  text: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    '& p': { margin: 0 },
  },
  stats: {
    display: 'grid',
    gap: tokens.spacingHorizontalL,
    gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))',
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  stat: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalXS,
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}`,
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: everestBrand[20],
    color: '#ffffff',
    boxShadow: tokens.shadow8,
    textAlign: 'center',
  },
  value: {
    color: accentGold.onDark,
    fontSize: tokens.fontSizeHero800,
    lineHeight: tokens.lineHeightHero800,
    fontWeight: tokens.fontWeightBold,
  },
  label: { fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
});

/** About (anchor about): the firm in three paragraphs and two figures. */
export default function AboutSection() {
  const styles = useStyles();
  return (
    <>
      <SectionHeading id="about-title" title={about.heading} />
      <div className={styles.layout}>
        <div className={styles.text}>
          {about.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
        <ul className={styles.stats}>
          {about.stats.map((stat) => (
            <li key={stat.label} className={styles.stat}>
              <span className={styles.value}>{stat.value}</span>
              <span className={styles.label}>{stat.label}</span>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
