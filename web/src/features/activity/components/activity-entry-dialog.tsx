import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { activityActionLabel } from '@everest/core/contract';
import { formatDateTime } from '@everest/core/domain';
import { useActivityEntry } from '../api/activity';
import { fieldLabel, subjectOf } from './activity-columns';

const useStyles = makeStyles({
  fieldList: { margin: 0, padding: 0, listStyle: 'none', display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  fieldName: { fontWeight: tokens.fontWeightSemibold },
  values: {
    margin: 0,
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    gap: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
  },
  value: {
    margin: 0,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    maxHeight: '16rem',
    overflowY: 'auto',
  },
  meta: { margin: `0 0 ${tokens.spacingVerticalM}`, display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}` },
  metaValue: { margin: 0, overflowWrap: 'anywhere' },
});

function valueText(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return '(none)';
  if (value === '') return '(empty)';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, null, 2);
}

/** One entry's dialog: who, when, from where, and each recorded field as it was and became. */
export function ActivityEntryDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const styles = useStyles();
  const entry = useActivityEntry(id);
  const data = entry.data;
  const names = data ? [...new Set([...Object.keys(data.before ?? {}), ...Object.keys(data.after ?? {})])] : [];
  return (
    <Dialog open={id !== null} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface aria-describedby={undefined}>
        <DialogBody>
          <DialogTitle>{data ? activityActionLabel(data.action) : 'Activity entry'}</DialogTitle>
          <DialogContent>
            {entry.isPending && <Spinner size="tiny" label="Loading the entry..." />}
            {entry.isError && <p role="alert">{`The entry could not be loaded: ${entry.error.message}`}</p>}
            {data && (
              <>
                <dl className={styles.meta}>
                  <dt>When</dt>
                  <dd className={styles.metaValue}>{formatDateTime(data.at)}</dd>
                  <dt>Who</dt>
                  <dd className={styles.metaValue}>{data.actor.name ? `${data.actor.name} (${data.actor.email})` : data.actor.email || 'Unknown'}</dd>
                  <dt>To what</dt>
                  <dd className={styles.metaValue}>{data.subject.id !== null ? `${subjectOf(data)} (${data.subject.type} ${data.subject.id})` : subjectOf(data)}</dd>
                  <dt>From</dt>
                  <dd className={styles.metaValue}>{data.clientAddress || '—'}</dd>
                </dl>
                {names.length === 0 ? (
                  <p>No field values were recorded for this action.</p>
                ) : (
                  <ul className={styles.fieldList} aria-label="Recorded fields">
                    {names.map((name) => (
                      <li key={name}>
                        <div className={styles.fieldName}>{fieldLabel(name)}</div>
                        <dl className={styles.values}>
                          {data.before && (
                            <>
                              <dt>Before</dt>
                              <dd className={styles.value}>{valueText(data.before[name])}</dd>
                            </>
                          )}
                          <dt>After</dt>
                          <dd className={styles.value}>{valueText(data.after?.[name])}</dd>
                        </dl>
                      </li>
                    ))}
                  </ul>
                )}
              </>
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
