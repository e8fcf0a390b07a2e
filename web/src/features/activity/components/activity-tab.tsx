import { useMemo, useState } from 'react';
import { Button, Field, Input, Select, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { activityActionLabels, activityActions, type ActivityAction } from '@everest/core/contract';
import { downloadActivityCsv, useActivity, useActivityPeople, type ActivityView } from '../api/activity';
import { useListAddress } from '../../../lib/admin/list-address';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { AdminTable, useAdminTable } from '../../../components/admin/admin-table';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { useActivityColumns } from './activity-columns';
import { ActivityEntryDialog } from './activity-entry-dialog';

/** The address's query keys of the filters: `?activityPerson=1&activityAction=edit-user&activityFrom=2026-11-01`. */
export const activityAddressKeys = { person: 'activityPerson', action: 'activityAction', from: 'activityFrom', to: 'activityTo' } as const;

const useStyles = makeStyles({
  filters: {
    display: 'grid',
    gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    gridTemplateColumns: 'minmax(0, 1fr)',
    alignItems: 'end',
    '@media (min-width: 640px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    '@media (min-width: 1024px)': { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' },
  },
});

const isAction = (value: string | null): value is ActivityAction => value !== null && (activityActions as readonly string[]).includes(value);
const isDate = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The filters as the address holds them; a value the address cannot mean is left out. */
function useActivityView(): [ActivityView, (changes: Partial<Record<keyof typeof activityAddressKeys, string>>) => void] {
  const address = useListAddress();
  const person = Number(address.get(activityAddressKeys.person));
  const action = address.get(activityAddressKeys.action);
  const from = address.get(activityAddressKeys.from);
  const to = address.get(activityAddressKeys.to);
  const view = useMemo<ActivityView>(
    () => ({
      userId: Number.isSafeInteger(person) && person > 0 ? person : undefined,
      action: isAction(action) ? action : undefined,
      from: isDate(from) ? from : undefined,
      to: isDate(to) ? to : undefined,
    }),
    [person, action, from, to],
  );
  const update = (changes: Partial<Record<keyof typeof activityAddressKeys, string>>) =>
    address.update(
      Object.fromEntries(Object.entries(changes).map(([key, value]) => [activityAddressKeys[key as keyof typeof activityAddressKeys], value || null])),
      { push: true },
    );
  return [view, update];
}

/**
 * Activity: every change staff made, newest first, filtered by person, action and
 * Pacific calendar days (kept in the address), paged by the server with Newer/Older, each entry
 * opened in a dialog, and the filtered view exported as CSV.
 */
export function ActivityTab() {
  const styles = useAdminStyles();
  const own = useStyles();
  const [view, setView] = useActivityView();
  // Keyset pages: the `before` of each page reached, so that Newer goes back exactly.
  const [pages, setPages] = useState<{ view: ActivityView; befores: (number | undefined)[] }>({ view, befores: [undefined] });
  const befores = pages.view === view ? pages.befores : [undefined];
  const before = befores.at(-1);
  const activity = useActivity(view, before);
  const people = useActivityPeople();
  const [openId, setOpenId] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);
  const columns = useActivityColumns(setOpenId);
  const entries = activity.data?.entries ?? [];
  const table = useAdminTable({ data: activity.data?.entries, columns, getRowId: (e) => String(e.id) });
  const filtered = Object.values(view).some((v) => v !== undefined);

  const exportCsv = () => {
    setExporting(true);
    downloadActivityCsv(view)
      .then(({ truncated }) => {
        if (truncated) notifySuccess('CSV exported', 'The view held more entries than one file takes: the newest 50,000 are in it. Narrow the dates for the rest.');
        else notifySuccess('CSV exported');
      })
      .catch((error: unknown) => notifyFailure('The CSV file could not be made', error))
      .finally(() => setExporting(false));
  };

  const emptyText = activity.isPending ? 'Loading activity...' : filtered ? 'No activity matches these filters.' : 'No activity yet.';
  return (
    <div className={styles.tab}>
      <section className={styles.section} aria-labelledby="activity-title">
        <h3 id="activity-title" className={styles.sectionTitle}>
          Activity
        </h3>
        <div className={own.filters} role="search" aria-label="Filter activity">
          <Field label="Person">
            <Select value={view.userId ? String(view.userId) : ''} onChange={(_, d) => setView({ person: d.value })}>
              <option value="">Everyone</option>
              {view.userId && !people.data?.people.some((p) => p.id === view.userId) && <option value={String(view.userId)}>{`Person ${view.userId}`}</option>}
              {people.data?.people.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.name && p.name !== p.email ? `${p.name} (${p.email})` : p.email}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Action">
            <Select value={view.action ?? ''} onChange={(_, d) => setView({ action: d.value })}>
              <option value="">Every action</option>
              {activityActions.map((a) => (
                <option key={a} value={a}>
                  {activityActionLabels[a]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="From (date)">
            <Input type="date" value={view.from ?? ''} max={view.to} onChange={(_, d) => setView({ from: d.value })} />
          </Field>
          <Field label="To (date)">
            <Input type="date" value={view.to ?? ''} min={view.from} onChange={(_, d) => setView({ to: d.value })} />
          </Field>
        </div>
        <div className={styles.buttons}>
          <Button onClick={exportCsv} disabledFocusable={exporting}>
            {exporting ? 'Exporting...' : 'Export CSV'}
          </Button>
          {filtered && <Button onClick={() => setView({ person: '', action: '', from: '', to: '' })}>Clear filters</Button>}
          {activity.isFetching && <Spinner size="tiny" label="Loading activity..." />}
        </div>
        {activity.isError ? (
          <div className={styles.buttons} role="alert">
            <span className={styles.alert}>{`The activity could not be loaded: ${activity.error.message}`}</span>
            <Button onClick={() => void activity.refetch()}>Try again</Button>
          </div>
        ) : (
          // Below the panel's breakpoint each entry is a card (admin-table.tsx), Details in view.
          <AdminTable table={table} label="Activity" empty={emptyText} />
        )}
        <nav className={styles.pager} aria-label="Activity pages">
          <span aria-live="polite">{entries.length === 0 ? '' : `Page ${befores.length} · ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`}</span>
          <div className={styles.buttons}>
            <Button size="small" disabled={befores.length <= 1} onClick={() => setPages({ view, befores: befores.slice(0, -1) })}>
              Newer
            </Button>
            <Button
              size="small"
              disabled={!activity.data?.nextBefore || activity.isPlaceholderData}
              onClick={() => activity.data?.nextBefore && setPages({ view, befores: [...befores, activity.data.nextBefore] })}
            >
              Older
            </Button>
          </div>
        </nav>
      </section>
      <ActivityEntryDialog id={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
