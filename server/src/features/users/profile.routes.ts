import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Services } from '../../services';
import { signedInUser } from '../auth/session';
import { getProfile, updateProfile } from './profile.service';

/** The caller's own profile: GET profile, POST update-profile. */
export function profileRoutes(router: Router<AppState>, { config, outbox, sessionUsers }: Services): void {
  bind(router, routes.profile, async ({ ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return getProfile(ctx.state.em, signedInUser(ctx.state));
  });

  bind(router, routes.updateProfile, async ({ body, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    const answer = await updateProfile(ctx.state.em, config, signedInUser(ctx.state), body);
    sessionUsers.clear(); // the session carries the e-mail address
    outbox.kick(); // an address change tells the old address
    return answer;
  });
}
