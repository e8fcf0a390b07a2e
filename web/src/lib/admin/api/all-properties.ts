import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api';
import { adminKeys } from './query-keys';

/** GET /api/admin/all-properties: every property, whatever its status or flag. */
export function getAllProperties(signal?: AbortSignal) {
  return api.call('adminAllProperties', undefined, { signal });
}

export const allPropertiesQueryOptions = queryOptions({
  queryKey: [...adminKeys.properties, 'all'],
  queryFn: ({ signal }) => getAllProperties(signal),
});

export function useAllProperties() {
  return useQuery(allPropertiesQueryOptions);
}
