import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api';

/**
 * GET /api/properties: one query shared by the home page (counts, carousel), the list and the
 * map, so navigating between them never fetches twice (data never goes stale, spec section 4).
 */
export const propertiesQuery = queryOptions({
  queryKey: ['properties'],
  queryFn: () => api.call('listProperties'),
});

export function useProperties() {
  return useQuery(propertiesQuery);
}
