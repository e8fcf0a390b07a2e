import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export function deleteUser(body: CallInput<'deleteUser'>['body']) {
  return api.call('deleteUser', { body });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.users });
      void queryClient.invalidateQueries({ queryKey: adminKeys.userProperties });
    },
  });
}
