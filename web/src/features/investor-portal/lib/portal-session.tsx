import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@everest/core/client';
import type { LoginAnswer, User } from '@everest/core/contract';
import { joinFullName, portalMessages, portalSuccess, roleLabels } from '@everest/core/domain';
import { getStoredUser } from '../../../lib/session-storage';
import { showToast } from '../../../lib/toast';
import { logout } from '../api/logout';
import { profileQueryKey, profileQueryOptions } from '../api/profile';
import { portalQueryKey } from '../api/query-keys';
import { sessionStore } from './session-store';

export type SessionStatus = 'checking' | 'signed-out' | 'signed-in';

export interface PortalSession {
  status: SessionStatus;
  /** The signed-in user; null unless status is 'signed-in'. */
  user: User | null;
  /** How the current status was reached: focus moves only after what the user just did. */
  cause: 'load' | 'sign-in' | 'sign-out';
  signIn: (answer: LoginAnswer) => void;
  signOut: () => void;
  /** A password change answers a fresh session token: the old one no longer works. */
  replaceToken: (token: string) => void;
  /** A saved profile: shown at once, without asking the server again. */
  setUser: (user: User) => void;
  /**
   * The same person goes on in a new session under a new role (an administrator who changed
   * their own): the user shown at once, and everything fetched under the old role fetched again.
   */
  continueAs: (user: User, token: string) => void;
  /** Reloads the profile from the server; answers the fresh user, or throws. */
  refresh: () => Promise<User>;
  /**
   * Ends the session when `error` is a 401 (its token expired or was revoked) and says so;
   * answers whether it did, so that the caller does not also report its own failure.
   */
  endIfUnauthorized: (error: unknown) => boolean;
}

export const isUnauthorized = (error: unknown): boolean => error instanceof ApiError && error.status === 401;

/**
 * Spec section 4: a stored user whose role or entity is missing, or whose entity is just the
 * full name again, is stale and must be fetched before it can be shown.
 */
export function needsProfile(user: User | null): boolean {
  if (!user?.role || !user.entity) return true;
  return user.entity === joinFullName(user.firstName, user.lastName);
}

const sessionEnded = {
  title: 'Session Ended',
  description: 'Your session has ended. Please sign in again.',
} as const;

/**
 * The portal's session (spec section 4). A stored token is always checked against the server
 * while the spinner shows: a token revoked by a password change elsewhere must not show the
 * portal. Only when the server cannot be reached is the stored user reused, and only if it is
 * complete (see needsProfile); otherwise the stored session is cleared.
 */
export function usePortalSessionState(): PortalSession {
  const queryClient = useQueryClient();
  const token = useSyncExternalStore(sessionStore.subscribe, sessionStore.getToken, () => null);
  const [storedUser] = useState(getStoredUser);
  const [cause, setCause] = useState<PortalSession['cause']>('load');
  const profile = useQuery({ ...profileQueryOptions, enabled: token !== null });

  const unauthorized = isUnauthorized(profile.error);
  const fallbackUser = storedUser && !needsProfile(storedUser) ? storedUser : null;
  let status: SessionStatus;
  let user: User | null = null;
  if (token === null || unauthorized) {
    status = 'signed-out';
  } else if (profile.data) {
    status = 'signed-in';
    user = profile.data.user;
  } else if (profile.isError) {
    user = fallbackUser;
    status = user ? 'signed-in' : 'signed-out';
  } else {
    status = 'checking';
  }

  const reset = useCallback(() => {
    sessionStore.clear();
    queryClient.removeQueries({ queryKey: portalQueryKey });
  }, [queryClient]);

  // A stored session the server refuses, or one that could not be checked and cannot be
  // trusted as it is, is forgotten.
  const mustClear = token !== null && (unauthorized || (profile.isError && !profile.data && !fallbackUser));
  useEffect(() => {
    if (mustClear) reset();
  }, [mustClear, reset]);

  // A sign-in or sign-out in another tab changes the token under us: the profile cached here may
  // be someone else's, so it is asked for again.
  const ownToken = useRef(token);
  useEffect(() => {
    if (token === ownToken.current) return;
    ownToken.current = token;
    if (token) void queryClient.invalidateQueries({ queryKey: profileQueryKey });
  }, [token, queryClient]);

  // Whatever the server last said about the user is what a reload shows next.
  const fresh = profile.data?.user;
  useEffect(() => {
    if (fresh && sessionStore.getToken()) sessionStore.saveUser(fresh);
  }, [fresh]);

  // Spec section 4: 'Your role has been changed to {role}' when fresh data shows a new role.
  const knownRole = useRef(storedUser?.role);
  const freshRole = fresh?.role;
  useEffect(() => {
    if (!freshRole) return;
    if (knownRole.current && knownRole.current !== freshRole) {
      showToast({ title: portalMessages.roleChanged(roleLabels[freshRole]) });
    }
    knownRole.current = freshRole;
  }, [freshRole]);

  const signIn = useCallback(
    (answer: LoginAnswer) => {
      knownRole.current = answer.user.role;
      ownToken.current = answer.token;
      queryClient.setQueryData(profileQueryKey, { user: answer.user });
      sessionStore.save(answer.token, answer.user);
      setCause('sign-in');
      showToast({ title: portalSuccess.loginSuccessful });
    },
    [queryClient],
  );

  const forget = useCallback(() => {
    knownRole.current = undefined;
    reset();
    setCause('sign-out');
  }, [reset]);

  // Logout ends the session on the server too, so that a copied download address (history, a
  // shared computer) stops working. Forgotten here at once, whatever the server answers.
  const signOut = useCallback(() => {
    const token = sessionStore.getToken();
    if (token) logout(token).catch(() => {});
    forget();
  }, [forget]);

  const current = user;
  const replaceToken = useCallback(
    (next: string) => {
      if (!current) return;
      ownToken.current = next;
      sessionStore.save(next, current);
    },
    [current],
  );

  const setUser = useCallback(
    (next: User) => {
      queryClient.setQueryData(profileQueryKey, { user: next });
    },
    [queryClient],
  );

  const continueAs = useCallback(
    (next: User, nextToken: string) => {
      ownToken.current = nextToken;
      sessionStore.save(nextToken, next);
      queryClient.setQueryData(profileQueryKey, { user: next });
      // An administrator's documents list, say, is not an investor's: never shown under the new role.
      void queryClient.resetQueries({ queryKey: portalQueryKey, predicate: (query) => query.queryKey[1] !== profileQueryKey[1] });
    },
    [queryClient],
  );

  const refetch = profile.refetch;
  const refresh = useCallback(async () => {
    const result = await refetch({ throwOnError: true });
    if (!result.data) throw new Error('The profile could not be loaded.');
    return result.data.user;
  }, [refetch]);

  const endIfUnauthorized = useCallback(
    (error: unknown) => {
      if (!isUnauthorized(error)) return false;
      // Several calls may fail with the same expired token: the first one says so.
      if (sessionStore.getToken()) {
        forget();
        showToast({ ...sessionEnded, variant: 'destructive' });
      }
      return true;
    },
    [forget],
  );

  // Spec section 4: a 401 from any call ends the session, including calls made by parts of the
  // portal that do not handle it themselves (the documents, the admin panel). Deferred, so that
  // the caches are not changed while they notify.
  useEffect(() => {
    const onError = (error: unknown) => {
      if (isUnauthorized(error)) setTimeout(() => endIfUnauthorized(error), 0);
    };
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && event.query.queryKey[0] === portalQueryKey[0]) {
        onError(event.action.error);
      }
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [queryClient, endIfUnauthorized]);

  return useMemo(
    () => ({ status, user, cause, signIn, signOut, replaceToken, setUser, continueAs, refresh, endIfUnauthorized }),
    [status, user, cause, signIn, signOut, replaceToken, setUser, continueAs, refresh, endIfUnauthorized],
  );
}

const PortalSessionContext = createContext<PortalSession | null>(null);

export function PortalSessionProvider({ session, children }: { session: PortalSession; children: ReactNode }) {
  return <PortalSessionContext.Provider value={session}>{children}</PortalSessionContext.Provider>;
}

export function usePortalSession(): PortalSession {
  const session = useContext(PortalSessionContext);
  if (!session) throw new Error('usePortalSession is used outside the investor portal.');
  return session;
}
