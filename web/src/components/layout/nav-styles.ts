import { makeStyles, tokens } from '@fluentui/react-components';
import { accentGold } from '../../lib/theme';

// Text links of the navigation bar, the mobile panel and the footer, all on navy.
export const useNavLinkStyles = makeStyles({
  link: {
    display: 'inline-flex',
    alignItems: 'center',
    minHeight: '32px',
    padding: `0 ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase300,
    fontWeight: tokens.fontWeightSemibold,
    lineHeight: tokens.lineHeightBase300,
    textDecorationLine: 'none',
    whiteSpace: 'nowrap',
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover },
    ':active': { backgroundColor: tokens.colorSubtleBackgroundPressed },
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: accentGold.onDark,
      outlineOffset: '2px',
    },
  },
  // The group the current route belongs to: a gold bar under the item, plus a heavier weight
  // so that the state does not rest on colour alone.
  activeGroup: {
    boxShadow: `inset 0 -3px 0 ${accentGold.onDark}`,
    fontWeight: tokens.fontWeightBold,
  },
});
