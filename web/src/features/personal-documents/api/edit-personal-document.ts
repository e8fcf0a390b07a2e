import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export function editUserDocument(body: CallInput<'editUserDocument'>['body']) {
  return api.call('editUserDocument', { body });
}

export function useEditUserDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editUserDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.userDocuments }),
  });
}
