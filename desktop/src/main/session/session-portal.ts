import { ApiError } from '@everest/core/client';
import { portalOver, type Portal } from '../../sync/portal';
import type { DesktopSession } from './desktop-session';

export const notSignedInMessage = 'Sign in to the portal first.';

/**
 * The sync engine's Portal, signed in with the app's one session rather than an e-mail and
 * password of its own (the headless CLI's `createPortal`). A 401 ends the session: the
 * engine then sees the refusal and the window shows the sign-in again. Every call, downloads
 * included, goes through the session's fetch.
 */
export function createSessionPortal(session: DesktopSession): Portal {
  async function signedIn<T>(work: () => Promise<T>): Promise<T> {
    if (!session.token()) throw new ApiError(401, notSignedInMessage);
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) await session.ended();
      throw error;
    }
  }
  // The session's own fetch for the downloads too ("already on the portal?" hashes a document's
  // file), never Node's: behind a company proxy or certificate authority only `net.fetch` gets through.
  return portalOver({ client: () => session.client(), token: () => session.token(), fetch: session.fetch, signedIn });
}
