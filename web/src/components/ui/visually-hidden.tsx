import type { ReactNode } from 'react';
import { makeStyles } from '@fluentui/react-components';

/** The rule that hides an element from sight but not from screen readers. */
export const visuallyHiddenStyle = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

const useStyles = makeStyles({ root: visuallyHiddenStyle });

/** Text for screen readers only (the final value of a counter, "opens in a new tab"). */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return <span className={styles.root}>{children}</span>;
}
