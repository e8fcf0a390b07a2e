import type { ReactNode } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  intro: {
    margin: `0 0 ${tokens.spacingVerticalXL}`,
    maxWidth: '70ch',
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
  },
});

/** The paragraph under the title of the list and of the map, above their filters. */
export function PageIntro({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return <p className={styles.intro}>{children}</p>;
}
