import { memo, Suspense, type CSSProperties, type ReactNode } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { everestBrand } from '../../../lib/theme';
import { HydrateWhenReached } from './hydrate-when-reached';

export type SectionTone = 'plain' | 'tinted' | 'navy';

const useStyles = makeStyles({
  section: { position: 'relative' },
  // The browser skips the layout and paint of a section far from the screen; its size until
  // then is the one last laid out ('auto'), or at first the reserve given below.
  deferred: {
    contentVisibility: 'auto',
    // The reserves are the bodies' heights; the section adds the inner padding, top and bottom.
    containIntrinsicSize: `auto calc(var(--home-section-reserve-narrow) + 2 * ${tokens.spacingVerticalXXXL})`,
    '@media (min-width: 960px)': {
      containIntrinsicSize: `auto calc(var(--home-section-reserve-wide) + 3 * ${tokens.spacingVerticalXXXL})`,
    },
  },
  plain: { backgroundColor: tokens.colorNeutralBackground1 },
  tinted: { backgroundColor: '#f4f6f9' },
  navy: { backgroundColor: everestBrand[20], color: '#ffffff' },
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
  /** The section's height below and above 960 px, close to its real one: the room the browser
   * keeps for it until it first lays it out (content-visibility), so that the scrollbar and an
   * anchor's scroll hardly move when it does. */
  reserve: { narrow: string; wide: string };
  children: ReactNode;
}

/**
 * A section of the home page, in the HTML with its body (the server renders it whole), so that
 * find-in-page, screen readers and crawlers find every section at load. What keeps the page fast
 * is the platform's: `content-visibility: auto` with an intrinsic size skips the rendering of the
 * sections off screen, their images load lazily, and their interactive parts (the carousel, the
 * map, the form) are chunks of their own that load as they come near.
 */
export const HomeSection = memo(function HomeSection({ id, tone = 'plain', reserve, children }: HomeSectionProps) {
  const styles = useStyles();
  // Each body is a lazy chunk: the browser hydrates a section once a reader comes near it and its
  // chunk is there, and keeps the server's markup on screen until then (HydrateWhenReached). The
  // section is memoised: a render of the page with the same props must not reach a boundary that
  // is still waiting, which React would give up hydrating and render afresh.
  return (
    <section
      id={id}
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      className={mergeClasses(styles.section, styles.deferred, styles[tone])}
      style={{ '--home-section-reserve-narrow': reserve.narrow, '--home-section-reserve-wide': reserve.wide } as CSSProperties}
    >
      <div className={styles.inner}>
        <Suspense fallback={null}>
          <HydrateWhenReached id={id}>{children}</HydrateWhenReached>
        </Suspense>
      </div>
    </section>
  );
});
