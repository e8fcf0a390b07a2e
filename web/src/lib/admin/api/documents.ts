import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api';
import { adminKeys } from './query-keys';

/** GET /api/admin/documents: every property document (decided: the panel searches and pages). */
export function getDocuments(signal?: AbortSignal) {
  return api.call('adminDocuments', undefined, { signal, cache: 'no-store' });
}

export const documentsQueryOptions = queryOptions({
  queryKey: adminKeys.documents,
  queryFn: ({ signal }) => getDocuments(signal),
});

export function useDocuments() {
  return useQuery(documentsQueryOptions);
}
