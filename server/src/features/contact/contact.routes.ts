import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Config } from '../../config';
import type { CaptchaProvider } from '../captcha/captcha-provider';
import { contactSent, receiveContactMessage } from './contact.service';

export function contactRoutes(router: Router<AppState>, { captcha, config }: { captcha: CaptchaProvider; config: Config }): void {
  const deps = { captcha, contactEmail: config.contactEmail };
  bind(
    router,
    routes.contact,
    async ({ body, ctx }) => {
      await receiveContactMessage(ctx.state.em, deps, body, ctx.ip);
      return { message: contactSent };
    },
    { effects: ['queues-mail'] },
  );
}
