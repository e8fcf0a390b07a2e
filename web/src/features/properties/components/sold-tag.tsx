import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  tag: {
    flexShrink: 0,
    padding: `0 ${tokens.spacingHorizontalXS}`,
    borderRadius: tokens.borderRadiusSmall,
    backgroundColor: '#3D3D3D',
    color: '#ffffff',
    fontSize: tokens.fontSizeBase100,
    fontWeight: tokens.fontWeightBold,
    letterSpacing: '0.06em',
  },
});

/** The tag of a sold property, in a marker's popup and in 'Properties by Location'. */
export function SoldTag() {
  const styles = useStyles();
  return <span className={styles.tag}>SOLD</span>;
}
