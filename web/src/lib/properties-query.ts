import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchPublicProperties } from './public-properties';

/**
 * GET /api/properties: one query shared by the home page (counts, carousel), the list and the
 * map, so navigating between them never fetches twice (data never goes stale, spec section 4).
 */
export const propertiesQuery = queryOptions({
  queryKey: ['properties'],
  // The contract's listProperties call, checked off the main thread (see public-properties.ts).
  queryFn: fetchPublicProperties,
});

export function useProperties() {
  return useQuery(propertiesQuery);
}
