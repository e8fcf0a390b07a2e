import { useMutation } from '@tanstack/react-query';
import { ApiError } from '@everest/core/client';
import type { ContactBody } from '@everest/core/contract';
import { publicMessages } from '@everest/core/domain';
import { api } from '../../../lib/api';

/** POST /api/contact (no retries: the query client's default, spec section 4). */
export function useSendContactMessage() {
  return useMutation({ mutationFn: (body: ContactBody) => api.call('contact', { body }) });
}

/**
 * The failure toast's text: the server's error message when the server answered, otherwise
 * (no connection, say) the spec's fallback sentence.
 */
export function contactFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.message.trim() !== '') return error.message;
  return publicMessages.contactFailure.fallback;
}
