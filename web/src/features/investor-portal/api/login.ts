import { useMutation } from '@tanstack/react-query';
import { signInCheckAnswer, signInCodeAnswer, type LoginBody } from '@everest/core/contract';
import { ApiError } from '@everest/core/client';
import { api } from '../../../lib/api';
import { loadCaptchaConfig } from '../../../lib/captcha/captcha-config';

export function login(body: LoginBody) {
  return api.call('login', { body });
}

/**
 * The server's `{ error, captchaRequired: true }`: a 429 when many sign-ins failed on
 * the account lately, a 400 when the check sent was refused (expired, or already used).
 */
export function asksForCheck(error: unknown): error is ApiError {
  return error instanceof ApiError && signInCheckAnswer.safeParse(error.answer).success;
}

/**
 * The server's `{ error, emailCodeRequired: true }`: the account is past its guess ceiling, and a
 * code was e-mailed to it if the password was right. The same sign-in goes again with `emailCode`.
 */
export function asksForEmailCode(error: unknown): error is ApiError {
  return error instanceof ApiError && signInCodeAnswer.safeParse(error.answer).success;
}

/**
 * The check's token, solved without the visitor's help. Only ALTCHA can be: with reCAPTCHA there
 * is nothing to solve silently, so the server's refusal stands and its sentence is shown.
 */
async function solveCheck(refusal: ApiError): Promise<string> {
  const config = await loadCaptchaConfig();
  if (config.provider !== 'altcha') throw refusal;
  // The solver and its workers are a chunk of their own, fetched only when a check is asked for.
  const { solveAltcha } = await import('../../../lib/captcha/solve-altcha');
  return solveAltcha();
}

/**
 * Signs in; when the server asks for the check, solves it and sends the same sign-in again with
 * `captcha`. A refused solution is solved once more (it may have expired while solving), not in
 * a loop. `onChecking` says when the check is under way, for the form's status.
 */
export async function loginWithCheck(body: LoginBody, onChecking: (checking: boolean) => void) {
  try {
    return await login(body);
  } catch (error) {
    if (!asksForCheck(error) || error.status !== 429) throw error;
    onChecking(true);
    try {
      try {
        return await login({ ...body, captcha: await solveCheck(error) });
      } catch (refused) {
        if (!asksForCheck(refused) || refused.status !== 400) throw refused;
        return await login({ ...body, captcha: await solveCheck(refused) });
      }
    } finally {
      onChecking(false);
    }
  }
}

export function useLogin(onChecking: (checking: boolean) => void = () => {}) {
  return useMutation({ mutationFn: (body: LoginBody) => loginWithCheck(body, onChecking) });
}
