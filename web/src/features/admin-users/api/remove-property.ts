import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export function removeProperty(body: CallInput<'removeProperty'>['body']) {
  return api.call('removeProperty', { body });
}

export function useRemoveProperty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeProperty,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.userProperties }),
  });
}
