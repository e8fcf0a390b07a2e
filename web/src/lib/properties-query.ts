import { useDeferredValue } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicProperty } from '@everest/core/contract';
import { propertiesQueryKey } from './page-data';
import { fetchPublicProperties } from './public-properties';

/**
 * GET /api/properties: one query shared by the home page (counts, carousel), the list and the
 * map, so navigating between them never fetches twice (data never goes stale, spec section 4).
 */
export const propertiesQuery = queryOptions({
  queryKey: propertiesQueryKey,
  // The contract's listProperties call, checked off the main thread (see public-properties.ts).
  queryFn: fetchPublicProperties,
});

/**
 * The property list for a page. When it arrives, the page's render of it (every card of the
 * list, every marker of the map) is the largest of the visit, about 60 ms of main thread on a
 * throttled phone in one piece: as a deferred value it renders in a transition, which React
 * slices, so that taps and keys are handled meanwhile. Until that render is done the page still
 * shows its loading text (`isPending`).
 */
export function useProperties(): PropertiesState {
  const { data: arrived, isError, refetch } = useQuery(propertiesQuery);
  const data = useDeferredValue(arrived);
  if (data !== undefined) return { data, isPending: false, isError: false, refetch };
  return isError
    ? { data: undefined, isPending: false, isError: true, refetch }
    : { data: undefined, isPending: true, isError: false, refetch };
}

// One shape per state, so that a page that has returned early for pending and error has data.
export type PropertiesState = { refetch: () => Promise<unknown> } & (
  | { data: PublicProperty[]; isPending: false; isError: false }
  | { data: undefined; isPending: true; isError: false }
  | { data: undefined; isPending: false; isError: true }
);
