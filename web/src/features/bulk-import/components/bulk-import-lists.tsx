import type { ReactNode } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import type { ImportRowError } from '@everest/core/contract';

/** A list shows this many items; past it, a sentence says how many more the file holds. */
export const listedItemsCap = 500;

export const useImportStyles = makeStyles({
  /** The preview's three counts side by side, on a phone too. */
  counts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalS,
    margin: 0,
    '@media (min-width: 640px)': { gap: tokens.spacingHorizontalM },
  },
  /** The results' six counts: two a row on a phone, three from 480 px. */
  resultCounts: {
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    '@media (min-width: 480px)': { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
  },
  count: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderTopWidth: '4px',
    margin: 0,
    minWidth: 0,
    overflowWrap: 'anywhere',
    '@media (min-width: 640px)': { padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}` },
  },
  countNew: { borderTopColor: tokens.colorPaletteGreenBorderActive },
  countExisting: { borderTopColor: tokens.colorBrandStroke1 },
  countErrors: { borderTopColor: tokens.colorPaletteRedBorderActive },
  countValue: {
    margin: 0,
    fontSize: tokens.fontSizeBase600,
    lineHeight: tokens.lineHeightBase600,
    fontWeight: tokens.fontWeightSemibold,
    '@media (min-width: 640px)': { fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700 },
  },
  countLabel: { fontWeight: tokens.fontWeightSemibold },
  countNote: { margin: 0, color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  listTitle: { margin: 0, fontSize: tokens.fontSizeBase300, fontWeight: tokens.fontWeightSemibold },
  /** Spec: list heights are capped and scroll. */
  scroller: {
    maxHeight: '16rem',
    overflowY: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  list: { listStyle: 'none', margin: 0, padding: 0 },
  item: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    overflowWrap: 'anywhere',
    ':not(:last-child)': { borderBottom: `1px solid ${tokens.colorNeutralStroke3}` },
  },
  email: { fontWeight: tokens.fontWeightSemibold },
  detail: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  change: { fontSize: tokens.fontSizeBase200 },
  errorRow: { fontWeight: tokens.fontWeightSemibold, color: tokens.colorPaletteRedForeground1 },
  group: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minWidth: 0 },
  meta: { margin: 0, color: tokens.colorNeutralForeground2 },
  panel: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalL,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    minWidth: 0,
    '@media (max-width: 480px)': { padding: tokens.spacingHorizontalM },
  },
  progress: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
  /** The staff accounts of an import, apart from the other lists and marked as a warning. */
  staff: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorPaletteDarkOrangeBorder1}`,
    borderLeftWidth: '4px',
    backgroundColor: tokens.colorPaletteDarkOrangeBackground1,
    minWidth: 0,
  },
  staffChange: { fontSize: tokens.fontSizeBase200, fontWeight: tokens.fontWeightSemibold },
});

export interface CappedListProps<T> {
  /** The list's heading id (its accessible name) and text. */
  id: string;
  title: string;
  items: readonly T[];
  itemKey: (item: T, index: number) => string;
  renderItem: (item: T) => ReactNode;
}

/** A titled list in a box of capped height that scrolls (and takes the focus, so keys scroll it). */
export function CappedList<T>({ id, title, items, itemKey, renderItem }: CappedListProps<T>) {
  const styles = useImportStyles();
  const shown = items.slice(0, listedItemsCap);
  const more = items.length - shown.length;
  return (
    <div className={styles.group}>
      <h5 id={id} className={styles.listTitle}>
        {title}
      </h5>
      <div className={styles.scroller} tabIndex={0} role="region" aria-labelledby={id}>
        <ul className={styles.list}>
          {shown.map((item, index) => (
            <li key={itemKey(item, index)} className={styles.item}>
              {renderItem(item)}
            </li>
          ))}
          {more > 0 && (
            <li className={styles.item}>
              <span className={styles.detail}>
                … and {more.toLocaleString('en-US')} more (the first {listedItemsCap.toLocaleString('en-US')} are listed).
              </span>
            </li>
          )}
        </ul>
      </div>
    </div>
  );
}

/** 'Errors (will be skipped)': each error with its line of the file. */
export function RowErrorList({ id, title, errors }: { id: string; title: string; errors: readonly ImportRowError[] }) {
  const styles = useImportStyles();
  return (
    <CappedList
      id={id}
      title={title}
      items={errors}
      itemKey={(e, i) => `${e.row}-${i}`}
      renderItem={(e) => (
        <>
          <span className={styles.errorRow}>Row {e.row}</span>
          <span>{e.error}</span>
          {/* The bad value, as text (core shortened it and replaced control characters). */}
          {e.value !== undefined && <span className={styles.detail}>Value: “{e.value}”</span>}
        </>
      )}
    />
  );
}
