import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pageSize } from '@everest/core/domain';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export interface UserDocumentsPageQuery {
  page: number;
  search: string;
}

/** GET /api/admin/user-documents, one page of a search (title, tags, owner's e-mail or name). */
export function getUserDocuments({ page, search }: UserDocumentsPageQuery, signal?: AbortSignal) {
  return api.call(
    'adminUserDocuments',
    { query: { page, limit: pageSize, search: search.trim() === '' ? undefined : search.trim() } },
    { signal, cache: 'no-store' },
  );
}

export const userDocumentsQueryOptions = (query: UserDocumentsPageQuery) =>
  queryOptions({
    queryKey: [...adminKeys.userDocuments, query.page, query.search.trim()],
    queryFn: ({ signal }) => getUserDocuments(query, signal),
  });

/** The page keeps showing the previous rows while the next page or search loads. */
export function useUserDocuments(query: UserDocumentsPageQuery) {
  return useQuery({ ...userDocumentsQueryOptions(query), placeholderData: keepPreviousData });
}
