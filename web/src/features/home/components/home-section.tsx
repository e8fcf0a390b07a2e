import { Suspense, type ReactNode } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useNearViewport } from '../../../components/ui/use-near-viewport';
import { useReaderEngaged } from '../../../components/ui/use-reader-engaged';
import { everestBrand } from '../../../lib/theme';

export type SectionTone = 'plain' | 'tinted' | 'navy';

const useStyles = makeStyles({
  section: { position: 'relative' },
  plain: { backgroundColor: tokens.colorNeutralBackground1 },
  tinted: { backgroundColor: '#f4f6f9' },
  navy: { backgroundColor: everestBrand[20], color: '#ffffff' },
  // The room kept for a body that has not arrived: one height below 960 px, one above.
  reserveNarrow: { '@media (min-width: 960px)': { display: 'none' } },
  reserveWide: { display: 'none', '@media (min-width: 960px)': { display: 'block' } },
  inner: {
    boxSizing: 'border-box',
    maxWidth: '1200px',
    margin: '0 auto',
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalL}`,
    '@media (min-width: 768px)': {
      padding: `calc(${tokens.spacingVerticalXXXL} * 1.5) ${tokens.spacingHorizontalXXL}`,
    },
  },
});

export interface HomeSectionProps {
  /** The anchor (about, portfolio, ...); the body's h2 carries `${id}-title`. */
  id: string;
  tone?: SectionTone;
  /** Room kept until the body is there, close to its height below and above 960 px, so that
   * the page below moves little when it arrives (and a section scroll is re-aimed if it does). */
  reserve: { narrow: string; wide: string };
  children: ReactNode;
}

/**
 * A section of the home page. The element and its anchor are in the entry chunk, so that the
 * navigation can scroll to it at once; its body is a lazy chunk, mounted when the section comes
 * near the screen, so that the first load renders the hero and little else.
 */
export function HomeSection({ id, tone = 'plain', reserve, children }: HomeSectionProps) {
  const styles = useStyles();
  // At first only what borders the first screen loads; once the reader scrolls, sections come
  // in well ahead of the viewport.
  const [ref, near] = useNearViewport<HTMLDivElement>(useReaderEngaged() ? '1000px' : '200px');
  const placeholder = (
    <>
      <div className={styles.reserveNarrow} style={{ minHeight: reserve.narrow }} />
      <div className={styles.reserveWide} style={{ minHeight: reserve.wide }} />
    </>
  );
  return (
    <section
      id={id}
      tabIndex={-1}
      // The heading comes with the body: until then the section has no name to point at.
      aria-labelledby={near ? `${id}-title` : undefined}
      className={mergeClasses(styles.section, styles[tone])}
    >
      <div ref={ref} className={styles.inner}>
        {near ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder}
      </div>
    </section>
  );
}
