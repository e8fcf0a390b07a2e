import { makeStyles, tokens } from '@fluentui/react-components';

/** What the desktop screens share: a column of sections, scrolling lists, tables, counts in a row. */
export const useScreenStyles = makeStyles({
  screen: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '72rem' },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
  counts: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXXL, margin: 0, padding: 0, listStyle: 'none' },
  list: {
    maxHeight: '18rem',
    overflowY: 'auto',
    // A 200-character file name has no space to break at: it wraps inside the box, never past it.
    overflowWrap: 'anywhere',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  // A table as tall as its rows: the page scrolls as a whole, so a 57-file plan reads like a
  // page rather than through a slot of two rows. In a window narrower than its columns
  // need, the table scrolls sideways in its box rather than squeezing them into one another.
  table: {
    overflowX: 'auto',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    '& > table': { minWidth: '40rem' },
    // A long e-mail or title wraps inside its column instead of running into the next one.
    '& td': { overflowWrap: 'anywhere' },
  },
  // Column widths of the fixed table layout: the file's path gets the most room, short values little.
  fileColumn: { width: '38%' },
  fileNameColumn: { width: '26%' },
  numberColumn: { width: '3.5rem' },
  shortColumn: { width: '6.5rem' },
  stateColumn: { width: '11rem' },
  muted: { color: tokens.colorNeutralForeground3 },
  path: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
});
