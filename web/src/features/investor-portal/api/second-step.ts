import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConfirmTotpBody, LoginVerifyBody, SecondStepProofBody } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { portalQueryKey } from './query-keys';

// Two-step sign-in (issue 21): the second half of a sign-in, and the set-up in Manage Profile.

export function useLoginVerify() {
  return useMutation({ mutationFn: (body: LoginVerifyBody) => api.call('loginVerify', { body }) });
}

export const secondStepQueryKey = [...portalQueryKey, 'second-step'] as const;

export const secondStepQueryOptions = queryOptions({
  queryKey: secondStepQueryKey,
  queryFn: ({ signal }) => api.call('secondStep', undefined, { signal }),
});

export function useSecondStep() {
  return useQuery(secondStepQueryOptions);
}

/** Each change asks for the status again, so the section and the required-set-up card follow. */
function useSecondStepMutation<B, A>(call: (body: B) => Promise<A>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secondStepQueryKey }),
  });
}

export const useStartTotp = () => useSecondStepMutation(() => api.call('startTotp', { body: {} }));
export const useConfirmTotp = () => useSecondStepMutation((body: ConfirmTotpBody) => api.call('confirmTotp', { body }));
export const useRegenerateBackupCodes = () =>
  useSecondStepMutation((body: SecondStepProofBody) => api.call('regenerateBackupCodes', { body }));
export const useDisableSecondStep = () => useSecondStepMutation((body: SecondStepProofBody) => api.call('disableSecondStep', { body }));
