import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

/** POST /api/admin/resend-invitation: the welcome e-mail again, with a fresh 7-day link. */
export function resendInvitation(body: CallInput<'resendInvitation'>['body']) {
  return api.call('resendInvitation', { body });
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    // A 409 means the status moved on (the user chose a password meanwhile): the list shows it.
    onError: () => void queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}
