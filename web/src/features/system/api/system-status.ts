import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminQueryKey } from '../../../lib/admin/api/query-keys';

const systemStatusKey = [...adminQueryKey, 'system'] as const;

/** How often the open tab asks again: a backup that starts or fails shows within a minute. */
export const systemStatusRefreshMs = 60_000;

/** GET /api/admin/system: backups, the outbox, the disk and the database, with the server's warnings. */
export const systemStatusQuery = () =>
  queryOptions({
    queryKey: systemStatusKey,
    queryFn: ({ signal }) => api.call('systemStatus', {}, { signal, cache: 'no-store' }),
  });

// decided: fetched again whenever the tab opens and every minute while it is open (the app's
// default is never): the tab answers "is our data safe now?", and a backup is taken or fails
// without anything in the panel knowing. Only while the page is in view, as TanStack's default.
export function useSystemStatus() {
  return useQuery({ ...systemStatusQuery(), refetchOnMount: 'always', refetchInterval: systemStatusRefreshMs });
}
