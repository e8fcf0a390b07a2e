import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Services } from '../../services';
import { getProfile, updateProfile } from './profile.service';

/** The caller's own profile: GET profile, POST update-profile. */
export function profileRoutes(router: Router<AppState>, { config }: Services): void {
  bind(router, routes.profile, async ({ user, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return getProfile(ctx.state.em, user);
  });

  // The session carries the e-mail address; an address change tells the old address.
  bind(
    router,
    routes.updateProfile,
    async ({ body, user, ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return updateProfile(ctx.state.em, config, user, body);
    },
    { effects: ['ends-sessions', 'queues-mail', 'changes-users'] },
  );
}
