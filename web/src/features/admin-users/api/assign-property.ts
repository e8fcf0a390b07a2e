import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export function assignProperty(body: CallInput<'assignProperty'>['body']) {
  return api.call('assignProperty', { body });
}

export function useAssignProperty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignProperty,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.userProperties }),
  });
}
