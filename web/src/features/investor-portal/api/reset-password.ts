import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordBody } from '@everest/core/contract';
import { api } from '../../../lib/api';

export function resetPassword(body: ResetPasswordBody) {
  return api.call('resetPassword', { body });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
