import { useMutation } from '@tanstack/react-query';
import type { RequestPasswordResetBody } from '@everest/core/contract';
import { api } from '../../../lib/api';

export function requestPasswordReset(body: RequestPasswordResetBody) {
  return api.call('requestPasswordReset', { body });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
