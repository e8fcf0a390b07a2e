import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { portalQueryKey } from './query-keys';

export const profileQueryKey = [...portalQueryKey, 'profile'] as const;

export function getProfile(signal?: AbortSignal) {
  return api.call('profile', undefined, { signal });
}

/** The signed-in user; also written directly by sign-in and profile saves. */
export const profileQueryOptions = queryOptions({
  queryKey: profileQueryKey,
  queryFn: ({ signal }) => getProfile(signal),
});
