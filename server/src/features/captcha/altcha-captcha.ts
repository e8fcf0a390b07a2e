import { createHmac } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import { pathFor, routes, type CaptchaChallengeAnswer, type RecaptchaSiteKeyAnswer } from '@everest/core/contract';
import { HttpError } from '../../http/errors';
import { captchaMessages, type CaptchaCheck, type CaptchaPass, type CaptchaProvider } from './captcha-provider';

export interface AltchaOptions {
  /** Signs challenges (ALTCHA_HMAC_KEY); whoever knows it can mint solutions. */
  hmacKey: string;
  /** The most attempts a challenge takes (ALTCHA_COMPLEXITY); half to all of it, at random. */
  complexity: number;
  /** How long a challenge may be solved and its solution used. */
  validityMs?: number;
  now?: () => number;
}

// PBKDF2 so that each attempt is real work in native code (WebCrypto in the browser's workers)
// rather than the overhead of a call; 1,000 iterations make an attempt about a millisecond.
const algorithm = 'PBKDF2/SHA-256';
const costPerAttempt = 1_000;
export const altchaValidityMs = 10 * 60_000;

const hex = z.string().regex(/^[0-9a-f]+$/);

/** The widget's payload: base64 of `{ challenge: { parameters, signature }, solution }`. */
const payloadSchema = z.object({
  challenge: z.object({
    // Loose: the signature covers every parameter, known to us or not, exactly as sent.
    parameters: z.looseObject({
      algorithm: z.string(),
      nonce: hex,
      salt: hex,
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: hex,
      keySignature: hex.optional(),
      memoryCost: z.number().optional(),
      parallelism: z.number().optional(),
      expiresAt: z.number(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    }),
    signature: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  solution: z.object({
    counter: z.number(),
    derivedKey: z.string(),
    time: z.number().optional(),
  }),
});

function decodePayload(token: string): z.infer<typeof payloadSchema> | null {
  try {
    const json: unknown = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    const parsed = payloadSchema.safeParse(json);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * ALTCHA, self-hosted proof of work (the default): the server signs a challenge, the browser
 * finds the counter whose derived key matches, and the server checks the HMAC signatures. Nothing
 * leaves for a third party. Challenges expire after ten minutes and each solution is accepted once
 * (its signature is kept in captcha_solutions until it expires).
 */
export class AltchaCaptcha implements CaptchaProvider {
  readonly widget: RecaptchaSiteKeyAnswer = {
    siteKey: '',
    provider: 'altcha',
    challengeUrl: pathFor(routes.captchaChallenge),
  };
  private readonly keySignatureSecret: string;
  private readonly validityMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AltchaOptions) {
    // A second secret for the derived-key signatures, derived so that one key is configured.
    this.keySignatureSecret = createHmac('sha256', options.hmacKey).update('altcha key signature').digest('hex');
    this.validityMs = options.validityMs ?? altchaValidityMs;
    this.now = options.now ?? Date.now;
  }

  async challenge(): Promise<CaptchaChallengeAnswer> {
    const { complexity } = this.options;
    const challenge = await createChallenge({
      algorithm,
      cost: costPerAttempt,
      deriveKey,
      // randomInt(max, min): the counter the browser has to reach.
      counter: randomInt(complexity, Math.ceil(complexity / 2)),
      expiresAt: new Date(this.now() + this.validityMs),
      hmacSignatureSecret: this.options.hmacKey,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
    const { expiresAt } = challenge.parameters;
    if (!challenge.signature || expiresAt === undefined) throw new Error('altcha-lib made an unsigned challenge.');
    return { parameters: { ...challenge.parameters, expiresAt }, signature: challenge.signature };
  }

  async verify({ token }: CaptchaCheck): Promise<CaptchaPass> {
    const payload = decodePayload(token);
    if (!payload) throw new HttpError(400, captchaMessages.notDone);
    const { parameters, signature } = payload.challenge;
    // Checked here too (altcha-lib compares with the clock), so that one clock decides.
    if (parameters.expiresAt * 1000 < this.now()) throw new HttpError(400, captchaMessages.expired);
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: this.options.hmacKey,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
    if (result.expired) throw new HttpError(400, captchaMessages.expired);
    if (!result.verified) throw new HttpError(400, captchaMessages.notDone);
    const expiresAt = new Date(parameters.expiresAt * 1000);
    return { redeem: (em) => redeemSolution(em, signature, expiresAt, new Date(this.now())) };
  }
}

/**
 * Records a solution as spent, or refuses it if it already was. Inside the caller's transaction:
 * two submissions of the same solution race on the primary key, and the second one waits for
 * the first to commit and then finds the row.
 */
async function redeemSolution(em: EntityManager, signature: string, expiresAt: Date, now: Date): Promise<void> {
  // Spent solutions are needed only until their challenge expires.
  await em.execute('delete from captcha_solutions where expires_at < ?', [now]);
  const inserted = await em.execute<{ signature: string }[]>(
    'insert into captcha_solutions (signature, expires_at) values (?, ?) on conflict (signature) do nothing returning signature',
    [signature, expiresAt],
  );
  if (inserted.length === 0) throw new HttpError(400, captchaMessages.used);
}
