import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  status: {
    margin: 0,
    padding: `${tokens.spacingVerticalXXL} 0`,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase400,
    textAlign: 'center',
  },
  // The page's content is still to come: holding a screen's height keeps the footer below
  // the fold, so that it does not jump (layout shift) when the content arrives.
  holdScreen: { minHeight: '100vh' },
  failure: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: `${tokens.spacingVerticalXXL} 0`,
    textAlign: 'center',
  },
  failureText: { margin: 0, fontSize: tokens.fontSizeBase400 },
});

/**
 * The spec's loading text (`publicMessages.loadingProperties`, `.loadingPropertyMap`). It holds a
 * screen's height unless its container already reserves the room (`holdScreen={false}`).
 */
export function LoadingText({ text, holdScreen = true }: { text: string; holdScreen?: boolean }) {
  const styles = useStyles();
  return (
    <p role="status" className={mergeClasses(styles.status, holdScreen && styles.holdScreen)}>
      {text}
    </p>
  );
}

/**
 * The spec leaves a failed property request open: the page says so in a sentence and offers
 * to try again, since queries are never retried on their own.
 */
export function LoadFailure({ onRetry }: { onRetry: () => void }) {
  const styles = useStyles();
  return (
    <div role="alert" className={styles.failure}>
      <p className={styles.failureText}>Our properties could not be loaded. Please try again.</p>
      <Button appearance="primary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
