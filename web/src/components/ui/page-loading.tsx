import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: {
    minHeight: '40vh',
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
