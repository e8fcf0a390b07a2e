import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { HttpError } from '../../http/errors';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Services } from '../../services';

export function captchaRoutes(router: Router<AppState>, { captcha }: Services): void {
  bind(router, routes.recaptchaSiteKey, async () => captcha.widget);

  bind(router, routes.captchaChallenge, async ({ ctx }) => {
    if (!captcha.challenge) throw new HttpError(404, 'This site does not issue its own verification challenges.');
    // Each visitor needs a challenge of their own; a cached one would be spent after one use.
    ctx.set('Cache-Control', 'no-store');
    return captcha.challenge();
  });
}
