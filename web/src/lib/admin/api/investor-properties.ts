import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api';
import { adminKeys } from './query-keys';

/** GET /api/admin/investor-properties: the properties flagged for investor relations, the only assignable ones. */
export function getInvestorProperties(signal?: AbortSignal) {
  return api.call('adminInvestorProperties', undefined, { signal });
}

export const investorPropertiesQueryOptions = queryOptions({
  queryKey: [...adminKeys.properties, 'investor-relations'],
  queryFn: ({ signal }) => getInvestorProperties(signal),
});

export function useInvestorProperties() {
  return useQuery(investorPropertiesQueryOptions);
}
