import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { portalQueryKey } from './query-keys';

// The account's signed-in sessions in Manage Profile.

export const sessionsQueryKey = [...portalQueryKey, 'sessions'] as const;

export const sessionsQueryOptions = queryOptions({
  queryKey: sessionsQueryKey,
  queryFn: ({ signal }) => api.call('sessions', undefined, { signal }),
  // Sessions start and end on other devices: each opening of Manage Profile asks again.
  staleTime: 0,
});

export function useSessions() {
  return useQuery(sessionsQueryOptions);
}

/** Each ending asks for the list again, so that the sessions gone leave it. */
function useEndingMutation<B, A>(call: (body: B) => Promise<A>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}

export const useEndOtherSessions = () => useEndingMutation(() => api.call('endOtherSessions', { body: {} }));
export const useEndSession = () => useEndingMutation((sessionId: string) => api.call('endSession', { body: { sessionId } }));
