import { makeStyles, tokens } from '@fluentui/react-components';
import { everestBrand } from '../../../lib/theme';

/**
 * The filter buttons of the list (links) and of the map (toggle buttons) look alike: a pill
 * with its count, filled navy when selected. The selected state is also bold and carries
 * aria-current or aria-pressed, so that it does not rest on colour alone.
 */
export const useFilterPillStyles = makeStyles({
  bar: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    listStyleType: 'none',
    margin: `0 0 ${tokens.spacingVerticalXL}`,
    padding: 0,
  },
  pill: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    minHeight: '40px',
    padding: `0 ${tokens.spacingHorizontalL}`,
    border: `1px solid ${everestBrand[80]}`,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralBackground1,
    color: everestBrand[70],
    fontFamily: 'inherit',
    fontSize: tokens.fontSizeBase300,
    fontWeight: tokens.fontWeightSemibold,
    lineHeight: tokens.lineHeightBase300,
    textDecorationLine: 'none',
    cursor: 'pointer',
    ':hover': { backgroundColor: everestBrand[160] },
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: tokens.colorStrokeFocus2,
      outlineOffset: '2px',
    },
  },
  selected: {
    backgroundColor: everestBrand[80],
    color: '#ffffff',
    fontWeight: tokens.fontWeightBold,
    ':hover': { backgroundColor: everestBrand[70] },
  },
  // Room for a count before the counts arrive, so that the buttons hardly widen (and the row
  // does not reflow) when the properties have loaded.
  count: { display: 'inline-block', minWidth: '3ch', fontWeight: tokens.fontWeightRegular },
});
