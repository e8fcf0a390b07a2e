import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { pageContent } from '@everest/fixtures/page-content';
import { NavButton } from '../../../components/navigation/nav-button';
import { ContentIcon } from '../../../components/ui/content-icon';
import { PageContainer } from '../../../components/ui/page-container';
import { accentGold, everestBrand } from '../../../lib/theme';

const useStyles = makeStyles({
  intro: {
    margin: `0 0 ${tokens.spacingVerticalXXL}`,
    maxWidth: '75ch',
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
  },
  section: { marginBottom: tokens.spacingVerticalXXXL },
  heading: {
    margin: `0 0 ${tokens.spacingVerticalL}`,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase600,
    lineHeight: tokens.lineHeightBase600,
    fontWeight: tokens.fontWeightSemibold,
  },
  badgeRows: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))',
    gap: tokens.spacingHorizontalXXL,
  },
  badges: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  entities: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(104px, 1fr))',
    gap: tokens.spacingHorizontalS,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  entity: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: everestBrand[30],
    color: '#ffffff',
  },
  entityLabel: {
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightBold,
    letterSpacing: '0.04em',
    color: accentGold.onDark,
  },
  entityName: {
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
    textAlign: 'center',
  },
  categoryLink: { minWidth: 'auto' },
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 300px), 1fr))',
    gap: tokens.spacingHorizontalXL,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  card: {
    height: '100%',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalXL,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderTop: `3px solid ${accentGold.onDark}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  icon: {
    display: 'inline-flex',
    padding: tokens.spacingHorizontalS,
    marginBottom: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: everestBrand[160],
    color: everestBrand[70],
  },
  cardTitle: {
    margin: `0 0 ${tokens.spacingVerticalS}`,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
  },
  cardText: { margin: 0, color: tokens.colorNeutralForeground2, lineHeight: tokens.lineHeightBase400 },
  figures: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 240px), 1fr))',
    gap: tokens.spacingHorizontalXL,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  figure: {
    height: '100%',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalXL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: everestBrand[20],
    color: '#ffffff',
    textAlign: 'center',
  },
  figureValue: {
    display: 'block',
    color: accentGold.onDark,
    fontSize: tokens.fontSizeHero800,
    lineHeight: tokens.lineHeightHero800,
    fontWeight: tokens.fontWeightBold,
  },
  figureLabel: {
    display: 'block',
    margin: `${tokens.spacingVerticalXS} 0`,
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
  },
  figureText: { margin: 0, color: everestBrand[150] },
  cta: {
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXL}`,
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: everestBrand[160],
    textAlign: 'center',
  },
  ctaText: { margin: `0 0 ${tokens.spacingVerticalL}`, fontSize: tokens.fontSizeBase400 },
});

/** /competitive-advantage (spec): entity and category badges, six advantages, three figures. */
export function AdvantagePage() {
  const styles = useStyles();
  const page = pageContent.competitiveAdvantage;
  return (
    <PageContainer title={page.heading}>
      <p className={styles.intro}>{page.intro}</p>

      <div className={mergeClasses(styles.section, styles.badgeRows)}>
        <section aria-labelledby="advantage-entities">
          <h2 id="advantage-entities" className={styles.heading}>
            {page.entityHeading}
          </h2>
          <ul className={styles.entities}>
            {page.entityBadges.map((badge) => (
              <li key={badge.label} className={styles.entity}>
                <span className={styles.entityLabel}>{badge.label}</span>
                <span className={styles.entityName}>{badge.name}</span>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="advantage-categories">
          <h2 id="advantage-categories" className={styles.heading}>
            {page.categoryHeading}
          </h2>
          <ul className={styles.badges}>
            {page.categoryBadges.map((badge) => (
              <li key={badge.label}>
                <NavButton
                  shape="circular"
                  className={styles.categoryLink}
                  target={{ kind: 'page', to: `/properties?filter=${badge.filter}` }}
                >
                  {badge.label}
                </NavButton>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section aria-labelledby="advantage-list" className={styles.section}>
        <h2 id="advantage-list" className={styles.heading}>
          {page.advantagesHeading}
        </h2>
        <ul className={styles.cards}>
          {page.advantages.map((advantage) => (
            <li key={advantage.title}>
              <article className={styles.card}>
                <span className={styles.icon}>
                  <ContentIcon name={advantage.icon} />
                </span>
                <h3 className={styles.cardTitle}>{advantage.title}</h3>
                <p className={styles.cardText}>{advantage.description}</p>
              </article>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="advantage-figures" className={styles.section}>
        <h2 id="advantage-figures" className={styles.heading}>
          {page.figuresHeading}
        </h2>
        <ul className={styles.figures}>
          {page.figures.map((figure) => (
            <li key={figure.label} className={styles.figure}>
              <span className={styles.figureValue}>{figure.value}</span>
              <span className={styles.figureLabel}>{figure.label}</span>
              <p className={styles.figureText}>{figure.description}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="advantage-cta" className={styles.cta}>
        <h2 id="advantage-cta" className={styles.heading}>
          {page.cta.heading}
        </h2>
        <p className={styles.ctaText}>{page.cta.body}</p>
        <NavButton appearance="primary" size="large" target={{ kind: 'section', section: 'contact' }}>
          {page.cta.button}
        </NavButton>
      </section>
    </PageContainer>
  );
}
