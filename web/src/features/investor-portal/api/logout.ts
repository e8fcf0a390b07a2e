import { api } from '../../../lib/api';

/**
 * Ends the session of `token` on the server, on every instance. The token is passed explicitly:
 * the portal forgets it at once, without waiting for the answer.
 */
export function logout(token: string) {
  return api.call('logout', { body: {} }, { headers: { Authorization: `Bearer ${token}` } });
}
