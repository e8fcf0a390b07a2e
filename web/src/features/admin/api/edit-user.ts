import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from './query-keys';

export function editUser(body: CallInput<'editUser'>['body']) {
  return api.call('editUser', { body });
}

export function useEditUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editUser,
    // A changed name or e-mail may move the user in or out of the current search.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}
