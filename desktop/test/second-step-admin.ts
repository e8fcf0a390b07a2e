import { randomBytes } from 'node:crypto';
import { createApiClient } from '@everest/core/client';
import { totpCode } from '@everest/server/testing';

/**
 * A new administrator of the test's own with an authenticator app turned on through the API of
 * the server at `serverUrl`, created by the demo administrator `admin`.
 */
export async function administratorWithTotp(serverUrl: string, admin: { email: string; password: string }): Promise<{ email: string; secret: string }> {
  const email = `desktop-two-step-${randomBytes(4).toString('hex')}@example.com`;
  const api = createApiClient({ baseUrl: serverUrl });
  const demo = await api.call('login', { body: admin });
  if (!('token' in demo)) throw new Error('The demo administrator has no second step.');
  await createApiClient({ baseUrl: serverUrl, getToken: () => demo.token }).call('createUser', {
    body: { name: 'Dee Desktop', email, role: 'administrator', password: admin.password },
  });
  const signedIn = await api.call('login', { body: { email, password: admin.password } });
  if (!('token' in signedIn)) throw new Error('A new administrator has no second step yet.');
  const as = createApiClient({ baseUrl: serverUrl, getToken: () => signedIn.token });
  // Turning it on asks for an owner proof, so that a borrowed session cannot: the password just signed in with.
  const { secret } = await as.call('startTotp', { body: { currentPassword: admin.password } });
  await as.call('confirmTotp', { body: { code: totpCode(secret) } });
  return { email, secret };
}
