import { makeStyles, tokens } from '@fluentui/react-components';

/**
 * The panel's one breakpoint: below it every table's rows are cards (admin-table.tsx)
 * and the tab list wraps. The tables need about 760 px; a phone has 375 and a small tablet 720+.
 */
export const cardsBelow = '(max-width: 719px)';
/** The media query of `cardsBelow`, as a style key. */
export const whenCards = `@media ${cardsBelow}`;

/** Layout shared by the panel's tabs, forms and tables. */
export const useAdminStyles = makeStyles({
  tab: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXL, minWidth: 0 },
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, minWidth: 0 },
  sectionTitle: {
    margin: 0,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    fontWeight: tokens.fontWeightSemibold,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  form: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  /** One column on phones, two from 640 px, three from 1024 px. */
  fieldGrid: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    alignItems: 'start',
    '@media (min-width: 640px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    '@media (min-width: 1024px)': { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
  },
  wide: { gridColumn: '1 / -1' },
  buttons: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  muted: { color: tokens.colorNeutralForeground2 },
  /** The table scrolls sideways inside its card on a phone; the page never does. */
  tableScroller: {
    overflowX: 'auto',
    maxWidth: '100%',
    // The inline editor sizes itself to this box (cqi), not to the wider table inside it.
    containerType: 'inline-size',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  // Columns sized by their content (Fluent's fixed layout gives every column the same width,
  // and an e-mail or coordinates ran into the next column).
  table: { minWidth: '760px', tableLayout: 'auto' },
  /**
   * An e-mail address: wide enough for most on one line (the chips beside it took the space and
   * broke 'example.com' in two), and broken anywhere rather than widen the table past that.
   */
  breakAnywhere: { display: 'block', minWidth: '13rem', overflowWrap: 'anywhere', [whenCards]: { minWidth: 0 } },
  nowrap: { whiteSpace: 'nowrap' },
  // Names and addresses keep a readable width; on a phone the table scrolls instead.
  cellStack: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalXS} 0`,
    minWidth: '8rem',
    [whenCards]: { minWidth: 0, padding: 0 },
  },
  /**
   * A row's buttons: each keeps its words on one line, and they wrap under each other rather
   * than run past the table's edge (a Users row with Resend Invitation cut Delete off at 1280 px).
   */
  rowActions: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalXS,
    padding: `${tokens.spacingVerticalXS} 0`,
    // Two buttons a line at least where the table is short of room, not one under the other.
    minWidth: '12rem',
    '& > *': { whiteSpace: 'nowrap', flexShrink: 0 },
    [whenCards]: { minWidth: 0 },
  },
  /** The inline editor: a panel across the whole row. */
  editor: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalS}`,
    // Inside the sideways-scrolling table the editor stays as wide as the visible box (less the
    // cell's padding), not the table, so a phone never scrolls a form sideways.
    position: 'sticky',
    left: 0,
    boxSizing: 'border-box',
    width: 'calc(100cqi - 2 * 12px)',
    // A card does not scroll sideways: the editor is simply the card's width.
    [whenCards]: { position: 'static', width: 'auto', padding: `${tokens.spacingVerticalS} 0` },
  },
  editorCell: { backgroundColor: tokens.colorNeutralBackground2 },
  pager: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
  },
  toolbar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-end' },
  search: { flex: '1 1 16rem', maxWidth: '28rem' },
  chips: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, padding: `${tokens.spacingVerticalXS} 0` },
  chip: {
    display: 'inline-flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalXXS,
    paddingLeft: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusCircular,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground1,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'nowrap',
    // A card's column is narrower than 'Summit Self Storage Chandler': the name wraps in its chip.
    [whenCards]: { whiteSpace: 'normal', overflowWrap: 'anywhere' },
  },
  checkboxList: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(14rem, 1fr))',
    // Each checkbox keeps its own height: stretched to a taller neighbour's, Fluent centres the
    // label but not the box beside it.
    alignItems: 'start',
    maxHeight: '14rem',
    overflowY: 'auto',
    margin: 0,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  fieldset: { border: 'none', margin: 0, padding: 0, minWidth: 0 },
  legend: { padding: 0, marginBottom: tokens.spacingVerticalXS, fontWeight: tokens.fontWeightSemibold },
  thumbnail: {
    width: '64px',
    height: '40px',
    objectFit: 'cover',
    borderRadius: tokens.borderRadiusSmall,
    backgroundColor: tokens.colorNeutralBackground3,
    display: 'block',
  },
  preview: {
    width: '100%',
    maxWidth: '320px',
    aspectRatio: '8 / 5',
    objectFit: 'cover',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    display: 'block',
  },
  alert: { margin: 0, color: tokens.colorPaletteRedForeground1 },
});
