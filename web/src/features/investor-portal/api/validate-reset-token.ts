import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { portalQueryKey } from './query-keys';

export function validateResetToken(token: string, signal?: AbortSignal) {
  return api.call('validateResetToken', { params: { token } }, { signal });
}

export const validateResetTokenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: [...portalQueryKey, 'reset-token', token],
    queryFn: ({ signal }) => validateResetToken(token, signal),
  });

/** Checks a reset link's token once; null when there is no token to check. */
export function useValidateResetToken(token: string | null) {
  return useQuery({ ...validateResetTokenQueryOptions(token ?? ''), enabled: token !== null });
}
