import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RemindBody } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

/** POST /api/admin/read-receipts/remind. */
export function remindUnopened(body: RemindBody) {
  return api.call('readReceiptRemind', { body });
}

/** Every read-receipt view shows when the last reminder went: all of them are fetched again. */
export function useRemindUnopened() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: remindUnopened,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.readReceipts }),
  });
}
