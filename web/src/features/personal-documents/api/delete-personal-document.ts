import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export function deleteUserDocument(body: CallInput<'deleteUserDocument'>['body']) {
  return api.call('deleteUserDocument', { body });
}

export function useDeleteUserDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUserDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.userDocuments }),
  });
}
