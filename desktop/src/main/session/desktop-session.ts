import { ApiError, createApiClient, type ApiClient } from '@everest/core/client';
import type { User } from '@everest/core/contract';
import type { SessionState } from '../../shared/api';
import type { TokenVault } from './token-vault';

export const sessionMessages = {
  secondStepNotSupported:
    'This account signs in with a second step, which the desktop app cannot ask for yet. Please use the browser, or an administrator account without one.',
  notAdministrator: 'This app is for administrators: sign in with an administrator account.',
} as const;

/**
 * The one sign-in of the app, held by the main process: the panel's API calls (forwarded by
 * the app scheme) and the sync engine both use its token, and the renderer never sees it.
 */
export interface DesktopSession {
  /** Signs in again with a token kept from the last run, if it is still good on `serverUrl`. */
  restore(serverUrl: string): Promise<SessionState>;
  signIn(serverUrl: string, email: string, password: string): Promise<SessionState>;
  signOut(): Promise<SessionState>;
  /** Forgets the session without asking the server (the server already ended it: a 401). */
  ended(): Promise<SessionState>;
  state(): SessionState;
  /** The bearer token for the current server, or null when signed out. */
  token(): string | null;
  /** An API client of the current server that sends the session's token. */
  client(): ApiClient;
  onChange(listener: (state: SessionState) => void): () => void;
}

export function createDesktopSession(options: {
  vault: TokenVault;
  initialServerUrl: string;
  fetch?: typeof globalThis.fetch;
}): DesktopSession {
  let serverUrl = options.initialServerUrl;
  let current: { token: string; user: User } | null = null;
  const listeners = new Set<(state: SessionState) => void>();

  const clientFor = (url: string, token: () => string | null) =>
    createApiClient({ baseUrl: url, getToken: token, fetch: options.fetch });

  function state(): SessionState {
    return current
      ? { signedIn: true, serverUrl, user: current.user, remembered: options.vault.remembers }
      : { signedIn: false, serverUrl };
  }

  function changed(): SessionState {
    const snapshot = state();
    for (const listener of listeners) listener(snapshot);
    return snapshot;
  }

  async function forget(): Promise<SessionState> {
    current = null;
    await options.vault.forget();
    return changed();
  }

  return {
    async restore(url) {
      serverUrl = url;
      current = null;
      const stored = await options.vault.load();
      // A token belongs to the server that issued it.
      if (!stored || stored.serverUrl !== url) return forget();
      try {
        // The window waits for this answer at start: an unreachable server must not hold it long.
        const { user } = await clientFor(url, () => stored.token).call('profile', undefined, { signal: AbortSignal.timeout(10_000) });
        if (user.role !== 'administrator') return forget();
        current = { token: stored.token, user };
        return changed();
      } catch (error) {
        // Out of reach: keep the token for the next start, but this run starts signed out.
        if (error instanceof ApiError && error.status === 401) return forget();
        return changed();
      }
    },
    async signIn(url, email, password) {
      serverUrl = url;
      const answer = await clientFor(url, () => null).call('login', { body: { email, password } });
      // Not yet: the app has no screen for the code (issue 21 leaves the desktop's second step open).
      if ('mfaRequired' in answer) throw new ApiError(403, sessionMessages.secondStepNotSupported);
      if (answer.user.role !== 'administrator') {
        // The session the server opened is closed at once: it is of no use here.
        await clientFor(url, () => answer.token).call('logout', { body: {} }).catch(() => undefined);
        throw new ApiError(403, sessionMessages.notAdministrator);
      }
      current = { token: answer.token, user: answer.user };
      await options.vault.save({ serverUrl: url, token: answer.token });
      return changed();
    },
    async signOut() {
      const token = current?.token;
      if (token) {
        // Ends the token on the server too; the app forgets it even when the server is out of reach.
        await clientFor(serverUrl, () => token).call('logout', { body: {} }).catch(() => undefined);
      }
      return forget();
    },
    ended: forget,
    state,
    token: () => current?.token ?? null,
    client: () => clientFor(serverUrl, () => current?.token ?? null),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
