import { useMutation } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { api } from '../../../lib/api';

/** POST /api/admin/reset-password: e-mails the user a reset link (the administrator's "send reset link"). */
export function resetUserPassword(body: CallInput<'adminResetPassword'>['body']) {
  return api.call('adminResetPassword', { body });
}

export function useResetUserPassword() {
  return useMutation({ mutationFn: resetUserPassword });
}
