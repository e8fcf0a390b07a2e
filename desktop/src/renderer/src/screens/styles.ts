import { makeStyles, tokens } from '@fluentui/react-components';

/** What the desktop screens share: a column of sections, scrolling lists, counts in a row. */
export const useScreenStyles = makeStyles({
  screen: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '72rem' },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
  counts: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXXL, margin: 0, padding: 0, listStyle: 'none' },
  list: {
    maxHeight: '18rem',
    overflowY: 'auto',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  path: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
});
