import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@everest/core/client';
import type { LoginBody, RecaptchaSiteKeyAnswer } from '@everest/core/contract';
import { loadCaptchaConfig } from '../../../lib/captcha/captcha-config';
import { solveAltcha } from '../../../lib/captcha/solve-altcha';
import { loginWithCheck } from './login';

// The API client, answering the calls in turn (see answerLogins).
const call = vi.hoisted(() => vi.fn<(name: string, options?: { body?: unknown }) => Promise<unknown>>());
vi.mock('../../../lib/api', () => ({ api: { call } }));
vi.mock('../../../lib/captcha/captcha-config', () => ({ loadCaptchaConfig: vi.fn() }));
vi.mock('../../../lib/captcha/solve-altcha', () => ({ solveAltcha: vi.fn() }));

const body: LoginBody = { email: 'owner@example.com', password: 'right' };
const signedIn = { token: 't', user: { id: 1 } };
const checkNeeded = () =>
  new ApiError(429, 'Please complete the check.', { answer: { error: 'Please complete the check.', captchaRequired: true } });
const checkRefused = () =>
  new ApiError(400, 'The check did not pass.', { answer: { error: 'The check did not pass.', captchaRequired: true } });

function provider(name: RecaptchaSiteKeyAnswer['provider']) {
  vi.mocked(loadCaptchaConfig).mockResolvedValue({ siteKey: '', provider: name });
}

/** Answers the login calls in turn, and records the bodies sent. */
function answerLogins(...answers: unknown[]) {
  const sent: unknown[] = [];
  call.mockImplementation(async (_name, options) => {
    sent.push(options?.body);
    const answer = answers.shift();
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return sent;
}

afterEach(() => vi.resetAllMocks());

describe('loginWithCheck', () => {
  it('solves the ALTCHA check the server asks for and sends the same sign-in with it', async () => {
    provider('altcha');
    vi.mocked(solveAltcha).mockResolvedValue('payload');
    const sent = answerLogins(checkNeeded(), signedIn);
    const checking = vi.fn();
    await expect(loginWithCheck(body, checking)).resolves.toEqual(signedIn);
    expect(sent).toEqual([body, { ...body, captcha: 'payload' }]);
    expect(checking.mock.calls).toEqual([[true], [false]]);
  });

  it('solves a refused check once more, and then gives the server its last word', async () => {
    provider('altcha');
    vi.mocked(solveAltcha).mockResolvedValueOnce('first').mockResolvedValueOnce('second');
    const refused = checkRefused();
    const sent = answerLogins(checkNeeded(), checkRefused(), refused);
    await expect(loginWithCheck(body, () => {})).rejects.toBe(refused);
    expect(sent).toEqual([body, { ...body, captcha: 'first' }, { ...body, captcha: 'second' }]);
  });

  it("shows the server's sentence with reCAPTCHA, which cannot be solved silently", async () => {
    provider('recaptcha');
    const needed = checkNeeded();
    const sent = answerLogins(needed);
    await expect(loginWithCheck(body, () => {})).rejects.toBe(needed);
    expect(sent).toEqual([body]);
    expect(solveAltcha).not.toHaveBeenCalled();
  });

  it('leaves a lock-out without the flag alone', async () => {
    const lockedOut = new ApiError(429, 'Too many failed sign-in attempts.', { answer: { error: 'Too many failed sign-in attempts.' } });
    const sent = answerLogins(lockedOut);
    await expect(loginWithCheck(body, () => {})).rejects.toBe(lockedOut);
    expect(sent).toEqual([body]);
  });
});
