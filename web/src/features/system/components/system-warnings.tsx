import { MessageBar, MessageBarBody, MessageBarTitle, makeStyles, tokens } from '@fluentui/react-components';
import type { SystemStatusAnswer } from '@everest/core/contract';
import { warningIntent } from '../lib/system-words';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, listStyle: 'none', margin: 0, padding: 0 },
});

/**
 * The server's warnings, worst first, each as it worded them; a success bar when there are none.
 * Multiline, so that a long sentence wraps on a phone instead of being cut off.
 */
export function SystemWarnings({ warnings }: { warnings: SystemStatusAnswer['warnings'] }) {
  const styles = useStyles();
  if (warnings.length === 0) {
    return (
      <MessageBar intent="success" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>All is well:</MessageBarTitle>
          backups are up to date, e-mail is going out and the disk has room.
        </MessageBarBody>
      </MessageBar>
    );
  }
  return (
    <ul className={styles.list} aria-label="Needs your attention">
      {warnings.map((warning) => (
        <li key={`${warning.kind}: ${warning.message}`}>
          <MessageBar intent={warningIntent(warning.kind)} layout="multiline">
            <MessageBarBody>{warning.message}</MessageBarBody>
          </MessageBar>
        </li>
      ))}
    </ul>
  );
}
