import { useMutation } from '@tanstack/react-query';
import type { EmailChangeLinkBody } from '@everest/core/contract';
import { api } from '../../../lib/api';

// A new e-mail address takes effect only from the link sent to it; the old address's
// link undoes the change. Both links open the portal, which posts their token (never in a path).

export function confirmEmailChange(body: EmailChangeLinkBody) {
  return api.call('confirmEmailChange', { body });
}

export function undoEmailChange(body: EmailChangeLinkBody) {
  return api.call('undoEmailChange', { body });
}

/** Withdraws the change waiting for its link; answers the profile as update-profile does. */
export function cancelEmailChange() {
  return api.call('cancelEmailChange', { body: {} });
}

export function useConfirmEmailChange() {
  return useMutation({ mutationFn: confirmEmailChange });
}

export function useUndoEmailChange() {
  return useMutation({ mutationFn: undoEmailChange });
}

export function useCancelEmailChange() {
  return useMutation({ mutationFn: cancelEmailChange });
}
