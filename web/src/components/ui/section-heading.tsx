import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { accentGold, everestBrand } from '../../lib/theme';

const useStyles = makeStyles({
  root: {
    maxWidth: '760px',
    margin: `0 auto ${tokens.spacingVerticalXXL}`,
    textAlign: 'center',
  },
  title: {
    margin: 0,
    color: everestBrand[30],
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
    '::after': {
      content: '""',
      display: 'block',
      width: '64px',
      height: '3px',
      margin: `${tokens.spacingVerticalM} auto 0`,
      backgroundColor: accentGold.onLight,
    },
  },
  titleOnDark: {
    color: '#ffffff',
    '::after': { backgroundColor: accentGold.onDark },
  },
  subtitle: {
    margin: `${tokens.spacingVerticalM} 0 0`,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
  },
  subtitleOnDark: { color: everestBrand[150] },
});

export interface SectionHeadingProps {
  /** The id the section's aria-labelledby points at. */
  id: string;
  title: string;
  subtitle?: string;
  onDark?: boolean;
}

/** The h2 of a home page section, with its optional subtitle. */
export function SectionHeading({ id, title, subtitle, onDark = false }: SectionHeadingProps) {
  const styles = useStyles();
  return (
    <div className={styles.root}>
      <h2 id={id} className={mergeClasses(styles.title, onDark && styles.titleOnDark)}>
        {title}
      </h2>
      {subtitle && <p className={mergeClasses(styles.subtitle, onDark && styles.subtitleOnDark)}>{subtitle}</p>}
    </div>
  );
}
