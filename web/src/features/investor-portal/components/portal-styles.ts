import { makeStyles, tokens } from '@fluentui/react-components';

/** Layout shared by the portal's cards and forms. */
export const usePortalStyles = makeStyles({
  card: {
    boxSizing: 'border-box',
    width: '100%',
    padding: tokens.spacingHorizontalXL,
    rowGap: tokens.spacingVerticalM,
    '@media (max-width: 480px)': { padding: tokens.spacingHorizontalL },
  },
  cardTitle: {
    margin: 0,
    fontSize: tokens.fontSizeBase500,
    lineHeight: tokens.lineHeightBase500,
    fontWeight: tokens.fontWeightSemibold,
    overflowWrap: 'anywhere',
  },
  sectionTitle: {
    margin: 0,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    fontWeight: tokens.fontWeightSemibold,
  },
  muted: { color: tokens.colorNeutralForeground2 },
  form: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
  },
  /** Two columns of fields on wide screens, one on phones. */
  fieldGrid: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    // A field with a hint is taller than its neighbour; stretched to the row's height, the
    // neighbour's Field grid grew its label and input (41 px, 9 px lower). Top-aligned, each
    // field keeps its own height.
    alignItems: 'start',
    '@media (min-width: 640px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
  },
  wide: { '@media (min-width: 640px)': { gridColumn: '1 / -1' } },
  buttons: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
  },
  alert: {
    margin: 0,
    color: tokens.colorPaletteRedForeground1,
  },
  panel: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    paddingTop: tokens.spacingVerticalM,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  // A list of bordered rows, each a text and its buttons (Manage Profile's second steps and
  // signed-in devices): the buttons wrap under the text on a phone.
  itemList: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
  },
  item: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  itemText: { display: 'flex', flexDirection: 'column', minWidth: 0, overflowWrap: 'anywhere' },
});
