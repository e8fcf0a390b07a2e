import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

/** GET /api/admin/user-properties: every user's property access, by property name. */
export function getUserProperties(signal?: AbortSignal) {
  return api.call('adminUserProperties', undefined, { signal });
}

export const userPropertiesQueryOptions = queryOptions({
  queryKey: adminKeys.userProperties,
  queryFn: ({ signal }) => getUserProperties(signal),
});

export function useUserProperties() {
  return useQuery(userPropertiesQueryOptions);
}
