import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminQueryKey } from '../../../lib/admin/api/query-keys';

// A user's two-step sign-in as the administrators see it, and its removal.

const secondStepKey = (userId: number) => [...adminQueryKey, 'second-step', userId] as const;

export function useUserSecondStep(userId: number) {
  return useQuery({
    queryKey: secondStepKey(userId),
    queryFn: ({ signal }) => api.call('adminSecondStep', { query: { userId } }, { signal }),
  });
}

export function useRemoveSecondStep(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call('removeSecondStep', { body: { userId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secondStepKey(userId) }),
  });
}
