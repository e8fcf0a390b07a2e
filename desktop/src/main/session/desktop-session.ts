import { ApiError, createApiClient, type ApiClient } from '@everest/core/client';
import type { LoginAnswer, SecondStepMethod, User } from '@everest/core/contract';
import type { SessionState } from '../../shared/api';
import type { TokenVault } from './token-vault';

export const sessionMessages = {
  passkeyOnly:
    "This account signs in with a passkey, which the desktop app cannot use, and has no backup code left. Please add an authenticator app in the portal's Manage Profile, or sign in with the browser.",
  signInAgain: 'Your sign-in has expired. Please sign in again.',
  notAdministrator: 'This app is for administrators: sign in with an administrator account.',
} as const;

/**
 * The one sign-in of the app, held by the main process: the panel's API calls (forwarded by
 * the app scheme) and the sync engine both use its token, and the renderer never sees it.
 */
export interface DesktopSession {
  /** Signs in again with a token kept from the last run, if it is still good on `serverUrl`. */
  restore(serverUrl: string): Promise<SessionState>;
  /**
   * Signs in with the password. An account with a second step answers a signed-out state with
   * `secondStep` set: `verifySecondStep` then finishes the sign-in.
   */
  signIn(serverUrl: string, email: string, password: string): Promise<SessionState>;
  /** Finishes a sign-in waiting for its second step with a TOTP or backup code. */
  verifySecondStep(code: string): Promise<SessionState>;
  signOut(): Promise<SessionState>;
  /** Forgets the session without asking the server (the server already ended it: a 401). */
  ended(): Promise<SessionState>;
  state(): SessionState;
  /** The bearer token for the current server, or null when signed out. */
  token(): string | null;
  /** An API client of the current server that sends the session's token. */
  client(): ApiClient;
  /**
   * How the session reaches the server (main: Electron's `net.fetch`, so that the system's
   * proxy and certificate authorities apply): its client, and any download made beside it.
   */
  fetch: typeof globalThis.fetch;
  onChange(listener: (state: SessionState) => void): () => void;
}

export function createDesktopSession(options: {
  vault: TokenVault;
  initialServerUrl: string;
  fetch?: typeof globalThis.fetch;
}): DesktopSession {
  let serverUrl = options.initialServerUrl;
  const fetch: typeof globalThis.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let current: { token: string; user: User } | null = null;
  /** A sign-in whose password was right, waiting for its code; its mfaToken never leaves main. */
  let pending: { serverUrl: string; mfaToken: string; methods: SecondStepMethod[] } | null = null;
  const listeners = new Set<(state: SessionState) => void>();

  const clientFor = (url: string, token: () => string | null) =>
    createApiClient({ baseUrl: url, getToken: token, fetch });

  function state(): SessionState {
    if (current) return { signedIn: true, serverUrl, user: current.user, remembered: options.vault.remembers };
    return pending ? { signedIn: false, serverUrl, secondStep: { methods: pending.methods } } : { signedIn: false, serverUrl };
  }

  function changed(): SessionState {
    const snapshot = state();
    for (const listener of listeners) listener(snapshot);
    return snapshot;
  }

  async function forget(): Promise<SessionState> {
    current = null;
    pending = null;
    await options.vault.forget();
    return changed();
  }

  /** A session the server opened, kept only for an administrator. */
  async function signedIn(url: string, answer: LoginAnswer): Promise<SessionState> {
    if (answer.user.role !== 'administrator') {
      // The session the server opened is closed at once: it is of no use here.
      await clientFor(url, () => answer.token).call('logout', { body: {} }).catch(() => undefined);
      throw new ApiError(403, sessionMessages.notAdministrator);
    }
    current = { token: answer.token, user: answer.user };
    await options.vault.save({ serverUrl: url, token: answer.token });
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
      pending = null;
      const answer = await clientFor(url, () => null).call('login', { body: { email, password } });
      if ('mfaRequired' in answer) {
        // The renderer's origin is the app's own scheme, not the portal's site, so WebAuthn
        // refuses the portal's passkeys here: codes only.
        const methods = answer.methods.filter((method) => method !== 'passkey');
        if (methods.length === 0) throw new ApiError(403, sessionMessages.passkeyOnly);
        pending = { serverUrl: url, mfaToken: answer.mfaToken, methods };
        return changed();
      }
      return signedIn(url, answer);
    },
    async verifySecondStep(code) {
      const waiting = pending;
      if (!waiting) throw new ApiError(401, sessionMessages.signInAgain);
      try {
        const answer = await clientFor(waiting.serverUrl, () => null).call('loginVerify', { body: { mfaToken: waiting.mfaToken, code } });
        pending = null;
        return await signedIn(waiting.serverUrl, answer);
      } catch (error) {
        // A wrong code leaves the sign-in open for another try; an expired one goes back to the password.
        if (error instanceof ApiError && error.status === 401 && /expired/i.test(error.message)) {
          pending = null;
          changed();
        }
        throw error;
      }
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
    fetch,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
