import type { User } from '@everest/core/contract';
import { clearSession, getStoredToken, storeSession, storeUser } from '../../../lib/session-storage';

// The stored session as an external store for useSyncExternalStore: every change made here, and
// a sign-in or sign-out in another tab of the same browser (the 'storage' event), re-renders
// the portal with the current token.

const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

export const sessionStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    window.addEventListener('storage', listener);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', listener);
    };
  },
  getToken: getStoredToken,
  save(token: string, user: User): void {
    storeSession(token, user);
    emit();
  },
  saveUser(user: User): void {
    storeUser(user);
  },
  clear(): void {
    clearSession();
    emit();
  },
};
