import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@everest/core/contract';
import { api } from '../../../lib/api';

export function changePassword(body: ChangePasswordBody) {
  return api.call('changePassword', { body });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
