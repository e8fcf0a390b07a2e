import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export function editPersonalDocument(body: CallInput<'editPersonalDocument'>['body']) {
  return api.call('editPersonalDocument', { body });
}

export function useEditPersonalDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editPersonalDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.personalDocuments }),
  });
}
