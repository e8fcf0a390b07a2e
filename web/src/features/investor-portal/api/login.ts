import { useMutation } from '@tanstack/react-query';
import type { LoginBody } from '@everest/core/contract';
import { api } from '../../../lib/api';

export function login(body: LoginBody) {
  return api.call('login', { body });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
