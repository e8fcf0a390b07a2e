// What a failed request means for the sync: the portal is away (wait for it, say so once), the
// portal refused this file (a person must act), or the portal refused the sign-in (stop at once,
// never retry: a retried stale password locks the office's address out).

import { ApiError } from '@everest/core/client';

/**
 * The portal refused the sync's sign-in: a wrong password or second-step code, a deactivated
 * account, one that is not an administrator, a sign-in the portal wants a captcha for, or a
 * session that ended (401). Retrying cannot help and may lock the account or the address out.
 */
export class SignInRefused extends Error {
  override readonly name = 'SignInRefused';
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A refused sign-in, or a call answered 401 once the portal has signed in again (the session is gone). */
export function isSignInRefusal(error: unknown): boolean {
  return error instanceof SignInRefused || (error instanceof ApiError && error.status === 401);
}

/** No answer, or a gateway's (502, 503, 504): the portal is away, not refusing anything. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504;
  // A fetch that never got an answer (connection refused or cut) from a client other than ours.
  return error instanceof TypeError;
}

/** Statuses that mean the server looked at the request and said no: retrying will not help. */
export function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && ![401, 408, 425, 429].includes(error.status);
}

/** The sentence the sync stops with when its sign-in is refused. */
export function signInRefusedSentence(error: unknown): string {
  return `The portal refused the sync's sign-in: ${messageOf(error)} The sync has stopped and will not try again: correct the account (EVEREST_EMAIL, EVEREST_PASSWORD, the second-step code) or sign in again in the app, then start it.`;
}
