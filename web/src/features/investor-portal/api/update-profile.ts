import { useMutation } from '@tanstack/react-query';
import type { UpdateProfileBody } from '@everest/core/contract';
import { api } from '../../../lib/api';

export function updateProfile(body: UpdateProfileBody) {
  return api.call('updateProfile', { body });
}

export function useUpdateProfile() {
  return useMutation({ mutationFn: updateProfile });
}
