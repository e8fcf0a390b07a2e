import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { HttpError } from '../../http/errors';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { CaptchaProvider } from './captcha-provider';
import { rateLimiter, type RateLimit } from '../rate-limit/rate-limiter';

/**
 * Challenges one address may ask for: each costs the server a key derivation, and anyone may
 * ask. A visitor needs one per form opened or expired (ten minutes); the margin is for offices
 * that share one address.
 */
export const captchaChallengeLimit: RateLimit = { limit: 60, windowMs: 10 * 60_000 };

export function captchaRoutes(router: Router<AppState>, { captcha }: { captcha: CaptchaProvider }): void {
  bind(router, routes.recaptchaSiteKey, async () => captcha.widget);

  bind(router, routes.captchaChallenge, async ({ ctx }) => {
    if (!captcha.challenge) throw new HttpError(404, 'This site does not issue its own verification challenges.');
    await rateLimiter.consume(
      ctx.state.em,
      `captcha-challenge:ip:${ctx.ip}`,
      captchaChallengeLimit,
      'This address has asked for many verification challenges in a short time.',
    );
    // Each visitor needs a challenge of their own; a cached one would be spent after one use.
    ctx.set('Cache-Control', 'no-store');
    return captcha.challenge();
  });
}
