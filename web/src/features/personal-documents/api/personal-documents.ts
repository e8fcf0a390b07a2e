import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pageSize } from '@everest/core/domain';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export interface PersonalDocumentsPageQuery {
  page: number;
  search: string;
}

/** GET /api/admin/user-documents, one page of a search (title, tags, owner's e-mail or name). */
export function getPersonalDocuments({ page, search }: PersonalDocumentsPageQuery, signal?: AbortSignal) {
  return api.call(
    'adminPersonalDocuments',
    { query: { page, limit: pageSize, search: search.trim() === '' ? undefined : search.trim() } },
    { signal, cache: 'no-store' },
  );
}

export const personalDocumentsQueryOptions = (query: PersonalDocumentsPageQuery) =>
  queryOptions({
    queryKey: [...adminKeys.personalDocuments, query.page, query.search.trim()],
    queryFn: ({ signal }) => getPersonalDocuments(query, signal),
  });

/** The page keeps showing the previous rows while the next page or search loads. */
export function usePersonalDocuments(query: PersonalDocumentsPageQuery) {
  return useQuery({ ...personalDocumentsQueryOptions(query), placeholderData: keepPreviousData });
}
