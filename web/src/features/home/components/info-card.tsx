import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ContentIcon, type ContentIconName } from '../../../components/ui/content-icon';
import { accentGold, everestBrand } from '../../../lib/theme';

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalXXL,
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    boxShadow: tokens.shadow4,
  },
  row: { flexDirection: 'row', alignItems: 'flex-start', gap: tokens.spacingHorizontalL },
  icon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    width: '48px',
    height: '48px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: everestBrand[20],
    color: accentGold.onDark,
  },
  title: {
    margin: 0,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase500,
    lineHeight: tokens.lineHeightBase500,
    fontWeight: tokens.fontWeightSemibold,
  },
  description: { margin: 0, color: tokens.colorNeutralForeground2, lineHeight: tokens.lineHeightBase400 },
});

export interface InfoCardProps {
  icon: ContentIconName;
  title: string;
  description: string;
  /** Icon beside the text instead of above it (the compact list of investment opportunities). */
  layout?: 'stacked' | 'row';
}

/** A static card of the content (public spec, section 3): icon, title, description. */
export function InfoCard({ icon, title, description, layout = 'stacked' }: InfoCardProps) {
  const styles = useStyles();
  return (
    <li className={mergeClasses(styles.card, layout === 'row' && styles.row)}>
      <span className={styles.icon}>
        <ContentIcon name={icon} />
      </span>
      <div>
        <h3 className={styles.title}>{title}</h3>
        <p className={styles.description}>{description}</p>
      </div>
    </li>
  );
}
