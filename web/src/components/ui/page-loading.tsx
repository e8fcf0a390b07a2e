import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: {
    // A full screen, like the pages it stands in for: the footer must not jump up and back
    // down while a page chunk arrives (Lighthouse measured a layout shift of 0.4 otherwise).
    minHeight: '100vh',
    boxSizing: 'border-box',
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalL}`,
    color: tokens.colorNeutralForeground2,
    textAlign: 'center',
  },
});

// Plain text rather than a Fluent Spinner: this sits in the entry chunk and shows only while a
// page chunk arrives.
export function PageLoading({ label = 'Loading...' }: { label?: string }) {
  const styles = useStyles();
  return (
    <div className={styles.root} role="status">
      {label}
    </div>
  );
}
