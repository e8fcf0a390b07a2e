import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export function deletePersonalDocument(body: CallInput<'deletePersonalDocument'>['body']) {
  return api.call('deletePersonalDocument', { body });
}

export function useDeletePersonalDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePersonalDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.personalDocuments }),
  });
}
