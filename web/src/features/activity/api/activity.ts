import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ActivityAction } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { getStoredToken } from '../../../lib/session-storage';
import { adminQueryKey } from '../../../lib/admin/api/query-keys';

const activityKey = [...adminQueryKey, 'activity'] as const;

/** The Activity tab's filters as the address keeps them; empty means "any". */
export interface ActivityView {
  userId?: number;
  action?: ActivityAction;
  from?: string;
  to?: string;
}

// decided: Activity is fetched again whenever it opens, as read receipts are: colleagues act while
// the administrator looks, and nothing in this panel tells it.
const freshOnOpen = { refetchOnMount: 'always' } as const;

/** GET /api/admin/activity: the page of entries older than `before` (the first page without). */
export function useActivity(view: ActivityView, before: number | undefined) {
  return useQuery({
    queryKey: [...activityKey, 'list', view, before ?? null],
    queryFn: ({ signal }) => api.call('activity', { query: { ...view, before } }, { signal, cache: 'no-store' }),
    placeholderData: keepPreviousData,
    ...freshOnOpen,
  });
}

/** GET /api/admin/activity/entries/:id: one entry with its values before and after. */
export function useActivityEntry(id: number | null) {
  return useQuery({
    queryKey: [...activityKey, 'entry', id],
    queryFn: ({ signal }) => api.call('activityEntry', { params: { id: id ?? 0 } }, { signal, cache: 'no-store' }),
    enabled: id !== null,
  });
}

/** GET /api/admin/activity/people: whoever has entries, for the person filter. */
export function useActivityPeople() {
  return useQuery({
    queryKey: [...activityKey, 'people'],
    queryFn: ({ signal }) => api.call('activityPeople', undefined, { signal, cache: 'no-store' }),
    ...freshOnOpen,
  });
}

/**
 * Downloads the filtered view as CSV (the session travels in a header, so the file is fetched and
 * handed to the browser as a blob). Answers whether the server cut it at its cap.
 */
export async function downloadActivityCsv(view: ActivityView): Promise<{ truncated: boolean }> {
  const token = getStoredToken();
  const res = await fetch(api.urlFor('activityCsv', { query: view }), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    cache: 'no-store',
  });
  if (!res.ok) {
    const answer = (await res.json().catch(() => null)) as { error?: string } | null;
    throw new Error(answer?.error ?? 'The CSV file could not be made.');
  }
  const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'activity.csv';
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = filename;
  link.click();
  URL.revokeObjectURL(link.href);
  return { truncated: res.headers.get('activity-truncated') === 'true' };
}
