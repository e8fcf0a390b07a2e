import { z } from 'zod';
import { recaptchaContactAction, type RecaptchaSiteKeyAnswer } from '@everest/core/contract';
import { HttpError } from '../../http/errors';
import type { Logger } from '../../logger';
import {
  captchaMessages,
  nothingToRedeem,
  type CaptchaCheck,
  type CaptchaPass,
  type CaptchaProvider,
} from './captcha-provider';

// Google's answers are parsed, not trusted: a field we rely on that is missing means "refused".
const siteverifyAnswer = z.object({
  success: z.boolean(),
  hostname: z.string().optional(),
  'error-codes': z.array(z.string()).optional(),
});

const assessmentAnswer = z.object({
  tokenProperties: z.object({
    valid: z.boolean(),
    invalidReason: z.string().optional(),
    hostname: z.string().optional(),
    action: z.string().optional(),
  }),
});

const requestTimeoutMs = 10_000;

interface GoogleCall {
  url: string;
  init: RequestInit;
  logger: Logger;
  /** Names the call in logs, without its secrets. */
  what: string;
}

/** One call to Google; an unreachable or failing service is a 503, never the visitor's fault. */
async function callGoogle({ url, init, logger, what }: GoogleCall): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(requestTimeoutMs) });
  } catch (error) {
    logger.warn(`${what} could not be reached.`, error);
    throw new HttpError(503, captchaMessages.unavailable);
  }
  const text = await response.text();
  if (!response.ok) {
    // 400/403 here mean a wrong key or project: the operator must see it.
    logger.error(`${what} answered ${response.status}: ${text.slice(0, 500)}`);
    throw new HttpError(503, captchaMessages.unavailable);
  }
  try {
    return JSON.parse(text);
  } catch {
    logger.error(`${what} answered something that is not JSON: ${text.slice(0, 200)}`);
    throw new HttpError(503, captchaMessages.unavailable);
  }
}

export interface RecaptchaOptions {
  siteKey: string;
  secretKey: string;
  /** https://www.google.com/recaptcha/api/siteverify, or a fake in tests. */
  verifyUrl: string;
  /** The host of PUBLIC_URL: a token solved on another site is refused. */
  expectedHostname: string;
  logger: Logger;
}

/** Google reCAPTCHA v2 (checkbox or invisible), verified with siteverify. */
export class RecaptchaCaptcha implements CaptchaProvider {
  readonly widget: RecaptchaSiteKeyAnswer;

  constructor(private readonly options: RecaptchaOptions) {
    this.widget = { siteKey: options.siteKey, provider: 'recaptcha' };
  }

  async verify({ token, remoteIp }: CaptchaCheck): Promise<CaptchaPass> {
    const { secretKey, verifyUrl, expectedHostname, logger } = this.options;
    const json = await callGoogle({
      url: verifyUrl,
      init: { method: 'POST', body: new URLSearchParams({ secret: secretKey, response: token, remoteip: remoteIp }) },
      logger,
      what: 'reCAPTCHA siteverify',
    });
    const parsed = siteverifyAnswer.safeParse(json);
    if (!parsed.success) {
      logger.error(`reCAPTCHA siteverify answered an unexpected shape: ${JSON.stringify(json).slice(0, 200)}`);
      throw new HttpError(503, captchaMessages.unavailable);
    }
    const answer = parsed.data;
    const codes = answer['error-codes'] ?? [];
    if (codes.some((code) => code.endsWith('-input-secret'))) {
      logger.error(`reCAPTCHA refused RECAPTCHA_SECRET_KEY (${codes.join(', ')}).`);
      throw new HttpError(503, captchaMessages.unavailable);
    }
    // Google keeps a token valid for two minutes and for one verification.
    if (codes.includes('timeout-or-duplicate')) throw new HttpError(400, captchaMessages.expiredOrUsed);
    if (!answer.success) throw new HttpError(400, captchaMessages.notDone);
    if (answer.hostname !== expectedHostname) {
      logger.warn(`reCAPTCHA token solved on ${answer.hostname ?? 'an unknown host'}, not ${expectedHostname}: refused.`);
      throw new HttpError(400, captchaMessages.notDone);
    }
    return nothingToRedeem;
  }
}

export interface RecaptchaEnterpriseOptions {
  siteKey: string;
  projectId: string;
  apiKey: string;
  /** https://recaptchaenterprise.googleapis.com/v1, or a fake in tests. */
  apiUrl: string;
  expectedHostname: string;
  logger: Logger;
}

/** reCAPTCHA Enterprise (checkbox key), verified by creating an assessment. */
export class RecaptchaEnterpriseCaptcha implements CaptchaProvider {
  readonly widget: RecaptchaSiteKeyAnswer;

  constructor(private readonly options: RecaptchaEnterpriseOptions) {
    this.widget = { siteKey: options.siteKey, provider: 'recaptcha-enterprise' };
  }

  async verify({ token, remoteIp }: CaptchaCheck): Promise<CaptchaPass> {
    const { siteKey, projectId, apiKey, apiUrl, expectedHostname, logger } = this.options;
    const url = `${apiUrl}/projects/${encodeURIComponent(projectId)}/assessments?key=${encodeURIComponent(apiKey)}`;
    const json = await callGoogle({
      url,
      init: {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          event: { token, siteKey, expectedAction: recaptchaContactAction, userIpAddress: remoteIp },
        }),
      },
      logger,
      what: 'reCAPTCHA Enterprise assessment',
    });
    const parsed = assessmentAnswer.safeParse(json);
    if (!parsed.success) {
      logger.error(`reCAPTCHA Enterprise answered an unexpected shape: ${JSON.stringify(json).slice(0, 200)}`);
      throw new HttpError(503, captchaMessages.unavailable);
    }
    const properties = parsed.data.tokenProperties;
    if (!properties.valid) {
      if (properties.invalidReason === 'EXPIRED') throw new HttpError(400, captchaMessages.expired);
      if (properties.invalidReason === 'DUPE') throw new HttpError(400, captchaMessages.used);
      throw new HttpError(400, captchaMessages.notDone);
    }
    if (properties.hostname !== expectedHostname || properties.action !== recaptchaContactAction) {
      logger.warn(
        `reCAPTCHA Enterprise token for ${properties.hostname ?? '?'} / action ${properties.action ?? '?'}, expected ${expectedHostname} / ${recaptchaContactAction}: refused.`,
      );
      throw new HttpError(400, captchaMessages.notDone);
    }
    return nothingToRedeem;
  }
}
