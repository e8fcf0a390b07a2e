import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UserStatus } from '@everest/core/contract';
import { pageSize, type Role } from '@everest/core/domain';
import { api } from '../../api';
import { adminKeys } from './query-keys';

export interface UsersPageQuery {
  page: number;
  search: string;
  /** Only users of this role or status; absent: all. */
  role?: Role;
  status?: UserStatus;
}

/** GET /api/admin/users, one page of a search; fetched with no cache, as the spec does. */
export function getUsers({ page, search, role, status }: UsersPageQuery, signal?: AbortSignal) {
  return api.call(
    'adminUsers',
    { query: { page, limit: pageSize, search: search.trim() === '' ? undefined : search.trim(), role, status } },
    { signal, cache: 'no-store' },
  );
}

export const usersQueryOptions = (query: UsersPageQuery) =>
  queryOptions({
    queryKey: [...adminKeys.users, query.page, query.search.trim(), query.role ?? null, query.status ?? null],
    queryFn: ({ signal }) => getUsers(query, signal),
  });

/** The page keeps showing the previous rows while the next page or search loads. */
export function useUsers(query: UsersPageQuery) {
  return useQuery({ ...usersQueryOptions(query), placeholderData: keepPreviousData });
}
