import { user as userSchema, type User } from '@everest/core/contract';

// The spec keeps "an investor auth token and cached user data" in the browser. They live here,
// in one place, so that sign-out clears both and the API client reads the same token.
const tokenKey = 'everest.investorToken';
const userKey = 'everest.investorUser';

export function getStoredToken(): string | null {
  try {
    return localStorage.getItem(tokenKey);
  } catch {
    return null;
  }
}

export function getStoredUser(): User | null {
  try {
    const text = localStorage.getItem(userKey);
    // Stored by an older version or edited by hand: treat anything off-contract as no user.
    const parsed = text ? userSchema.safeParse(JSON.parse(text)) : null;
    return parsed?.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function storeSession(token: string, user: User): void {
  localStorage.setItem(tokenKey, token);
  localStorage.setItem(userKey, JSON.stringify(user));
}

export function storeUser(user: User): void {
  localStorage.setItem(userKey, JSON.stringify(user));
}

export function clearSession(): void {
  localStorage.removeItem(tokenKey);
  localStorage.removeItem(userKey);
}
