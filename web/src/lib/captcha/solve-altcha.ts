import { solveChallengeWorkers, type Solution } from 'altcha/lib';
import PbkdfWorker from 'altcha/workers/pbkdf2?worker';
import ShaWorker from 'altcha/workers/sha?worker';
import type { CaptchaChallengeAnswer } from '@everest/core/contract';
import { api } from '../api';

// Loaded with `import()` only when a check is asked for: altcha's solver and its workers stay out
// of the page's entry chunk.

/** The widget's workers, by the challenge's algorithm; the server signs PBKDF2/SHA-256. */
function createWorker(algorithm: string): Worker {
  if (algorithm.startsWith('PBKDF2/')) return new PbkdfWorker();
  if (algorithm.startsWith('SHA-')) return new ShaWorker();
  throw new Error(`Unsupported ALTCHA algorithm ${algorithm}.`);
}

/** The widget's payload for a solved challenge: base64 of `{ challenge, solution }`. */
function payloadOf(challenge: CaptchaChallengeAnswer, solution: Solution): string {
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return btoa(JSON.stringify(payload));
}

/**
 * Does what the ALTCHA widget does, without a widget: fetches a challenge signed by our server
 * and solves it in Web Workers, so the page stays responsive. Answers the token to send as the
 * sign-in's `captcha`; each one is accepted once.
 */
export async function solveAltcha(): Promise<string> {
  const challenge = await api.call('captchaChallenge');
  const solution = await solveChallengeWorkers({
    challenge,
    concurrency: Math.min(4, Math.max(1, navigator.hardwareConcurrency || 1)),
    createWorker,
    timeout: 90_000,
  });
  if (!solution) throw new Error('The check of this device could not be completed. Please try again.');
  return payloadOf(challenge, solution);
}
