import type { EntityManager } from '@mikro-orm/postgresql';
import type { CaptchaChallengeAnswer, RecaptchaSiteKeyAnswer } from '@everest/core/contract';
import { publicMessages } from '@everest/core/domain';

/** The sentences a refused captcha answers with (400), or an unreachable provider (503). */
export const captchaMessages = {
  /** Missing, forged, wrong or failed: the spec's sentence. */
  notDone: publicMessages.captchaNotDone,
  expired: 'The verification has expired. Please complete it again and resend your message.',
  used: 'This verification has already been used. Please complete it again and resend your message.',
  expiredOrUsed: 'The verification has expired or was already used. Please complete it again and resend your message.',
  unavailable: 'The verification service could not be reached. Please try again in a few minutes.',
} as const;

export interface CaptchaCheck {
  /** What the widget yielded (the contact message's `recaptchaToken`). */
  token: string;
  /** The visitor's address, passed on to Google as its API suggests. */
  remoteIp: string;
}

/**
 * A verified captcha, to be redeemed in the transaction of the action it lets through: if that
 * transaction rolls back, the solution was not spent; if it commits, the solution cannot be
 * used again.
 */
export interface CaptchaPass {
  redeem(em: EntityManager): Promise<void>;
}

/** One captcha provider, chosen by CAPTCHA_PROVIDER. */
export interface CaptchaProvider {
  /** What the widget needs to render (GET /api/recaptcha-site-key). */
  readonly widget: RecaptchaSiteKeyAnswer;
  /** Checks a token: a pass, or an HttpError with one of `captchaMessages` (400, or 503). */
  verify(check: CaptchaCheck): Promise<CaptchaPass>;
  /** A fresh challenge, for providers that issue their own (ALTCHA). */
  challenge?(): Promise<CaptchaChallengeAnswer>;
}

/** For providers whose tokens are single use on their side already (Google's). */
export const nothingToRedeem: CaptchaPass = { redeem: async () => {} };
