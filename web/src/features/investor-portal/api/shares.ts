import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateShareBody } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { portalQueryKey } from './query-keys';

// Shared access: the investor's own shares in Manage Profile, and the shares given to
// the signed-in person, which the documents' switch offers.

export const sharesQueryKey = [...portalQueryKey, 'shares'] as const;
export const sharedWithMeQueryKey = [...portalQueryKey, 'shared-with-me'] as const;

export const sharesQueryOptions = queryOptions({
  queryKey: sharesQueryKey,
  queryFn: ({ signal }) => api.call('shares', undefined, { signal }),
  // A delegate sets a password, an administrator ends a share: each opening asks again.
  staleTime: 0,
});

export function useShares() {
  return useQuery(sharesQueryOptions);
}

export const sharedWithMeQueryOptions = queryOptions({
  queryKey: sharedWithMeQueryKey,
  queryFn: ({ signal }) => api.call('sharedWithMe', undefined, { signal }),
});

export function useSharedWithMe() {
  return useQuery(sharedWithMeQueryOptions);
}

/** Each change asks for the list again, so that it shows the share as the server has it. */
function useShareMutation<B, A>(call: (body: B) => Promise<A>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesQueryKey }),
  });
}

export const useCreateShare = () => useShareMutation((body: CreateShareBody) => api.call('createShare', { body }));
export const useRevokeShare = () => useShareMutation((shareId: number) => api.call('revokeShare', { body: { shareId } }));
