import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import type { ConfirmTotpBody, LoginVerifyBody, OwnerProof, RemovePasskeyBody } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { usePortalSession } from '../lib/portal-session';
import { portalQueryKey } from './query-keys';

// Two-step sign-in: the second half of a sign-in, and the set-up in Manage Profile.

export function useLoginVerify() {
  return useMutation({ mutationFn: (body: LoginVerifyBody) => api.call('loginVerify', { body }) });
}

/**
 * The browser's own words for a passkey prompt that ended without a passkey, as a sentence for
 * the person: they closed it, it timed out, or this device has none of the account's passkeys.
 */
export function passkeyFailure(error: unknown): Error {
  if (error instanceof WebAuthnError || (error instanceof Error && error.name === 'NotAllowedError')) {
    return new Error('No passkey was used: the prompt was closed or timed out. Please try again, or use a code.');
  }
  return error instanceof Error ? error : new Error('The passkey could not be used.');
}

/** Passkey as the second step: a challenge for this sign-in, the browser's prompt, the check. */
export function usePasskeySignIn() {
  return useMutation({
    mutationFn: async (mfaToken: string) => {
      const { options } = await api.call('passkeySignInOptions', { body: { mfaToken } });
      const passkey = await startAuthentication({ optionsJSON: options }).catch((error: unknown) => {
        throw passkeyFailure(error);
      });
      return api.call('loginVerify', { body: { mfaToken, passkey } });
    },
  });
}

export const secondStepQueryKey = [...portalQueryKey, 'second-step'] as const;

export const secondStepQueryOptions = queryOptions({
  queryKey: secondStepQueryKey,
  queryFn: ({ signal }) => api.call('secondStep', undefined, { signal }),
});

export function useSecondStep() {
  return useQuery(secondStepQueryOptions);
}

/**
 * Whether a code can stand for the password in an owner proof (ConfirmOwnerDialog): the account
 * has an authenticator app, or backup codes left (a passkey alone gives no code to type).
 */
export function useCodeAllowed(): boolean {
  const { data } = useSecondStep();
  return !!data && (data.totp || data.backupCodesLeft > 0);
}

/**
 * Each change asks for the status again, so the section and the required-set-up card follow.
 * Turning two-step sign-in on or off ends every session of the account: such an answer carries
 * this one's fresh token, taken before anything is asked again.
 */
function useSecondStepMutation<B, A extends object>(call: (body: B) => Promise<A>) {
  const queryClient = useQueryClient();
  const session = usePortalSession();
  return useMutation({
    mutationFn: call,
    onSuccess: (answer) => {
      if ('token' in answer && typeof answer.token === 'string') session.replaceToken(answer.token);
      return queryClient.invalidateQueries({ queryKey: secondStepQueryKey });
    },
  });
}

// Every change of the second step takes an owner proof: the password or a current code.
export const useStartTotp = () => useSecondStepMutation((proof: OwnerProof) => api.call('startTotp', { body: proof }));
export const useConfirmTotp = () => useSecondStepMutation((body: ConfirmTotpBody) => api.call('confirmTotp', { body }));
export const useRemoveTotp = () => useSecondStepMutation((proof: OwnerProof) => api.call('removeTotp', { body: proof }));
export const useRegenerateBackupCodes = () => useSecondStepMutation((proof: OwnerProof) => api.call('regenerateBackupCodes', { body: proof }));

/**
 * A new passkey: options with the server's challenge (for the owner proof), the browser's prompt,
 * then the check and store.
 */
export const useRegisterPasskey = () =>
  useSecondStepMutation(async ({ name, proof }: { name: string; proof: OwnerProof }) => {
    const { options } = await api.call('passkeyCreationOptions', { body: proof });
    const response = await startRegistration({ optionsJSON: options }).catch((error: unknown) => {
      throw passkeyFailure(error);
    });
    return api.call('registerPasskey', { body: { name, response } });
  });
export const useRemovePasskey = () => useSecondStepMutation((body: RemovePasskeyBody) => api.call('removePasskey', { body }));
