import type { ReactNode } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useAdminStyles } from '../../../components/admin/admin-styles';

export const useSystemStyles = makeStyles({
  box: {
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    minWidth: 0,
    '@media (max-width: 479px)': { padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}` },
  },
  // Term beside its value from 640 px; above it on a phone, so that nothing needs sideways room.
  facts: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalL,
    margin: 0,
    '@media (min-width: 640px)': { gridTemplateColumns: 'minmax(9rem, max-content) minmax(0, 1fr)', rowGap: tokens.spacingVerticalS },
  },
  term: { margin: 0, fontWeight: tokens.fontWeightSemibold },
  // Paths, bucket names and archive names have no spaces to wrap at: they break anywhere instead.
  detail: {
    margin: 0,
    minWidth: 0,
    overflowWrap: 'anywhere',
    '@media (max-width: 639px)': { marginBottom: tokens.spacingVerticalS },
  },
  note: { display: 'block', color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  caution: { color: tokens.colorStatusWarningForeground1, fontWeight: tokens.fontWeightSemibold },
  bad: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  paragraph: { margin: 0, overflowWrap: 'anywhere' },
  // Fluent centres a spinner and its label; here it is a line of the section like the others.
  startAligned: { justifyContent: 'flex-start' },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, overflowWrap: 'anywhere' },
});

/** One of the tab's sections: a bordered box under its heading. */
export function SystemSection({ id, title, className, children }: { id: string; title: string; className?: string; children: ReactNode }) {
  const styles = useAdminStyles();
  const own = useSystemStyles();
  return (
    <section className={mergeClasses(styles.section, own.box, className)} aria-labelledby={id}>
      <h3 id={id} className={styles.sectionTitle}>
        {title}
      </h3>
      {children}
    </section>
  );
}

export function Facts({ children }: { children: ReactNode }) {
  return <dl className={useSystemStyles().facts}>{children}</dl>;
}

/** A term and its value; `note` is a smaller line under the value that says what it means. */
export function Fact({ term, note, children }: { term: string; note?: string; children: ReactNode }) {
  const own = useSystemStyles();
  return (
    <>
      <dt className={own.term}>{term}</dt>
      <dd className={own.detail}>
        {children}
        {note && <span className={own.note}>{note}</span>}
      </dd>
    </>
  );
}
