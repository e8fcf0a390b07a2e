import { Button, MessageBar, MessageBarActions, MessageBarBody, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { useSystemStatus } from '../api/system-status';
import { formatMoment } from '../lib/system-words';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { BackupsSection } from './backups-section';
import { MailSection } from './mail-section';
import { DatabaseSection, DiskSection } from './storage-sections';
import { SystemWarnings } from './system-warnings';

const useStyles = makeStyles({
  // One column on a phone; side by side where each keeps about 22rem. Backups take the width.
  sections: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 22rem), 1fr))',
    gap: tokens.spacingVerticalL,
    minWidth: 0,
  },
  wide: { gridColumn: '1 / -1' },
});

/**
 * System: whether the firm's data is safe (backups), whether mail goes out, and whether the disk
 * has room, as GET /api/admin/system answers; asked again when opened and every minute.
 */
export function SystemTab() {
  const styles = useAdminStyles();
  const own = useStyles();
  const status = useSystemStatus();
  const checkedAt = status.dataUpdatedAt > 0 ? formatMoment(new Date(status.dataUpdatedAt).toISOString()) : '';
  const retry = () => void status.refetch();

  return (
    <div className={styles.tab}>
      <section className={styles.section} aria-labelledby="system-title">
        <h3 id="system-title" className={styles.sectionTitle}>
          System
        </h3>
        {status.data && (
          <div className={styles.buttons}>
            <span className={styles.muted}>{`Checked ${checkedAt}`}</span>
            <Button size="small" onClick={retry} disabledFocusable={status.isFetching}>
              {status.isFetching ? 'Checking...' : 'Check now'}
            </Button>
          </div>
        )}
        {status.isPending && <Spinner size="small" label="Checking backups, e-mail, disk and database..." />}
        {status.isError && !status.data && (
          <div className={styles.buttons} role="alert">
            <span className={styles.alert}>{`The system's state could not be loaded: ${status.error.message}`}</span>
            <Button onClick={retry} disabledFocusable={status.isFetching}>
              Try again
            </Button>
          </div>
        )}
        {/* A failed re-check keeps the last answer on screen, but says how old it is. */}
        {status.isError && status.data && (
          <MessageBar intent="warning" layout="multiline">
            <MessageBarBody>{`Could not check again (${status.error.message}). What follows is as of ${checkedAt}.`}</MessageBarBody>
            <MessageBarActions>
              <Button size="small" onClick={retry}>
                Try again
              </Button>
            </MessageBarActions>
          </MessageBar>
        )}
        {status.data && <SystemWarnings warnings={status.data.warnings} />}
      </section>
      {status.data && (
        <div className={own.sections}>
          <BackupsSection backups={status.data.backups} className={own.wide} />
          <MailSection outbox={status.data.outbox} />
          <DiskSection disk={status.data.disk} low={status.data.warnings.some((w) => w.kind === 'disk-low')} />
          <DatabaseSection status={status.data} />
        </div>
      )}
    </div>
  );
}
