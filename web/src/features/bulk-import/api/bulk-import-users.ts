import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export type BulkImportUsersInput = CallInput<'bulkImportUsers'>['body'];

/** POST /api/admin/bulk-import-users: creates and (by choice) updates the users of the rows. */
export function bulkImportUsers(body: BulkImportUsersInput) {
  return api.call('bulkImportUsers', { body });
}

export function useBulkImportUsers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkImportUsers,
    // The Users tab's list and property-access chips show the imported users next time.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.users });
      void queryClient.invalidateQueries({ queryKey: adminKeys.userProperties });
    },
  });
}
