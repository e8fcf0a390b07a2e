import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { captchaChallengeAnswer, type CaptchaChallengeAnswer } from '@everest/core/contract';

/** The widget's payload for a solved challenge: base64 of `{ challenge, solution }`. */
export async function solveAltcha(challenge: CaptchaChallengeAnswer): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 60_000 });
  if (!solution) throw new Error('The ALTCHA challenge was not solved in time.');
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** Does what the browser widget does: fetches a challenge from the server and solves it. */
export async function altchaToken(api: (path: string) => Promise<Response>): Promise<string> {
  const res = await api('/api/captcha/challenge');
  if (res.status !== 200) throw new Error(`GET /api/captcha/challenge answered ${res.status}`);
  return solveAltcha(captchaChallengeAnswer.parse(await res.json()));
}
