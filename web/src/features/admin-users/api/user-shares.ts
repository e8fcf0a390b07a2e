import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminQueryKey } from '../../../lib/admin/api/query-keys';

// The shares a user gave and received, as the user editor lists them, and ending one.

const userSharesKey = [...adminQueryKey, 'user-shares'] as const;

export function useUserShares(userId: number) {
  return useQuery({
    queryKey: [...userSharesKey, userId],
    queryFn: ({ signal }) => api.call('adminUserShares', { query: { userId } }, { signal }),
    // A share is made and revoked in the portal, out of the panel's sight: each opening asks again.
    staleTime: 0,
  });
}

/** Ending a share changes both people's lists: every user's shares are asked for again. */
export function useEndShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shareId: number) => api.call('endShare', { body: { shareId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userSharesKey }),
  });
}
