import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export function updateDocument(body: CallInput<'updateDocument'>['body']) {
  return api.call('updateDocument', { body });
}

export function useUpdateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.documents }),
  });
}
