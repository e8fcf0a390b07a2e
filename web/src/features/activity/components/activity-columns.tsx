import { useMemo } from 'react';
import { Button, useRestoreFocusTarget } from '@fluentui/react-components';
import { createColumnHelper } from '@tanstack/react-table';
import { activityActionLabel, type ActivityEntry } from '@everest/core/contract';
import { formatDateTime } from '@everest/core/domain';
import { useAdminStyles } from '../../../components/admin/admin-styles';

/** 'firstName' as 'first name'. */
export const fieldLabel = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

export const personOf = (entry: ActivityEntry) => entry.actor.name || entry.actor.email || 'Unknown';
export const subjectOf = (entry: ActivityEntry) => entry.subject.label || entry.subject.type || '—';

/** The entry's button: opens its dialog, which gives the focus back to it on close. */
function OpenButton({ entry, onOpen }: { entry: ActivityEntry; onOpen: (id: number) => void }) {
  const restoreFocusTarget = useRestoreFocusTarget();
  return (
    <Button size="small" {...restoreFocusTarget} aria-label={`Details of ${activityActionLabel(entry.action)}: ${subjectOf(entry)}, ${formatDateTime(entry.at)}`} onClick={() => onOpen(entry.id)}>
      Details
    </Button>
  );
}

const column = createColumnHelper<ActivityEntry>();

export function useActivityColumns(onOpen: (id: number) => void) {
  const styles = useAdminStyles();
  return useMemo(
    () => [
      column.accessor('at', { header: 'When', cell: ({ getValue }) => <span className={styles.nowrap}>{formatDateTime(getValue())}</span> }),
      column.display({
        id: 'person',
        header: 'Who',
        cell: ({ row }) => (
          <div className={styles.cellStack}>
            <span>{personOf(row.original)}</span>
            {row.original.actor.name && <span className={`${styles.muted} ${styles.breakAnywhere}`}>{row.original.actor.email}</span>}
          </div>
        ),
      }),
      column.display({ id: 'action', header: 'Did', cell: ({ row }) => activityActionLabel(row.original.action), meta: { card: 'title' } }),
      column.display({
        id: 'subject',
        header: 'To what',
        cell: ({ row }) => (
          <div className={styles.cellStack}>
            <span className={styles.breakAnywhere}>{subjectOf(row.original)}</span>
            {row.original.fields.length > 0 && <span className={styles.muted}>{row.original.fields.map(fieldLabel).join(', ')}</span>}
          </div>
        ),
      }),
      column.accessor('clientAddress', { header: 'From', cell: ({ getValue }) => getValue() || '—' }),
      column.display({ id: 'open', header: 'Actions', cell: ({ row }) => <OpenButton entry={row.original} onOpen={onOpen} />, meta: { card: 'actions' } }),
    ],
    [styles, onOpen],
  );
}
