import { makeStyles, tokens } from '@fluentui/react-components';

/** The bulk upload's panels: the preview and the results. */
export const useBulkStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    minWidth: 0,
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  counts: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  totals: { display: 'flex', flexWrap: 'wrap', gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalXXL}`, margin: 0 },
  total: { margin: 0, fontSize: tokens.fontSizeBase500, lineHeight: tokens.lineHeightBase500, fontWeight: tokens.fontWeightSemibold },
  /** A quarter's manifest has hundreds of rows: the table scrolls inside a capped height. */
  scroll: { maxHeight: '28rem', overflowY: 'auto', minWidth: 0, backgroundColor: tokens.colorNeutralBackground1 },
  filename: { display: 'block', minWidth: '8rem', overflowWrap: 'anywhere' },
  /** A part of the preview: the property documents, or one manifest's rows. */
  part: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minWidth: 0 },
  partTitle: { margin: 0, fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300, fontWeight: tokens.fontWeightSemibold },
  listTitle: { margin: `0 0 ${tokens.spacingVerticalXS}`, fontWeight: tokens.fontWeightSemibold },
  list: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXL,
    maxHeight: '12rem',
    overflowY: 'auto',
    overflowWrap: 'anywhere',
  },
  inputs: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    alignItems: 'start',
    '@media (min-width: 640px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
  },
  /** A native file input keeps its intrinsic width, which is wider than a phone's column. */
  fileInput: { maxWidth: '100%', minWidth: 0 },
  or: { margin: 0, color: tokens.colorNeutralForeground2 },
  /** The batch's period: Year and Quarter side by side, 'None' by default. */
  period: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, margin: 0, padding: 0, border: 'none', minWidth: 0 },
  legend: { padding: 0, fontWeight: tokens.fontWeightSemibold },
  periodFields: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalL, '& > *': { minWidth: '8rem' } },
});
