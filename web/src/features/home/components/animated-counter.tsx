import { useLayoutEffect, useRef, useState } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { counterDurationMs, counterVisibilityThreshold } from '@everest/core/domain';
import type { siteContent } from '@everest/fixtures/content';
import { VisuallyHidden } from '../../../components/ui/visually-hidden';
import { accentGold } from '../../../lib/theme';
import { prefersReducedMotion } from '../../../lib/scroll';
import { counterStartValue, counterValueAt } from '../utils/counter';

export type Counter = (typeof siteContent)['trackRecord']['counters'][number];

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalXS,
    textAlign: 'center',
  },
  value: {
    color: accentGold.onDark,
    fontSize: 'clamp(2.5rem, 6vw, 3.5rem)',
    lineHeight: 1.1,
    fontWeight: tokens.fontWeightBold,
    // Digits of one width, so that the figure does not wobble while it counts.
    fontVariantNumeric: 'tabular-nums',
  },
  // The counters sit on the navy band of their section.
  label: {
    color: '#ffffff',
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
  },
});

const format = (counter: Counter, value: number) => `${counter.prefix}${value}${counter.suffix}`;

/**
 * A figure that counts up from a random 50-70 % of its value to the value, over 2000 ms, once
 * half of it is on screen (spec section 4). Readers who ask for less motion see the value at
 * once; screen readers always get the final figure, never the moving one.
 *
 * The HTML (the server's render, and a reader without JavaScript) shows the final figure; the
 * browser sets the starting figure before its first paint of the counter and counts from there.
 */
export function AnimatedCounter({ counter }: { counter: Counter }) {
  const styles = useStyles();
  const ref = useRef<HTMLLIElement>(null);
  const [shown, setShown] = useState(counter.value);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || prefersReducedMotion() || typeof IntersectionObserver === 'undefined') return;
    const end = counter.value;
    const start = counterStartValue(end);
    setShown(start);
    let frame = 0;
    const run = () => {
      const startedAt = performance.now();
      const tick = (now: number) => {
        const value = counterValueAt(start, end, now - startedAt, counterDurationMs);
        setShown(value);
        if (value !== end) frame = requestAnimationFrame(tick);
      };
      frame = requestAnimationFrame(tick);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        run();
      },
      { threshold: counterVisibilityThreshold },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [counter.value]);

  return (
    <li ref={ref} className={styles.root}>
      <span className={styles.value} aria-hidden>
        {format(counter, shown)}
      </span>
      <VisuallyHidden>{format(counter, counter.value)}</VisuallyHidden>
      <span className={styles.label}>{counter.label}</span>
    </li>
  );
}
