import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, totpCode } from '@everest/server/testing';
import { createPortal, secondStepNeeded } from './portal';
import { administratorWithTotp } from '../../test/second-step-admin';

const admin = { email: 'admin@example.com', password: 'Everest@2025' };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(async () => {
  await server?.close();
});

describe('the headless sync with an administrator who has a second step', () => {
  it('signs in with the code it is given, and works', async () => {
    const { email, secret } = await administratorWithTotp(server.url, admin);
    let asked = 0;
    const portal = createPortal({
      serverUrl: server.url,
      email,
      password: admin.password,
      secondStepCode: async () => {
        asked += 1;
        return totpCode(secret, 1);
      },
    });
    expect((await portal.propertyNames()).length).toBeGreaterThan(0);
    expect(asked).toBe(1);
  });

  it('is refused with a sentence that says how to give a code when it has none', async () => {
    const { email } = await administratorWithTotp(server.url, admin);
    const portal = createPortal({ serverUrl: server.url, email, password: admin.password });
    await expect(portal.propertyNames()).rejects.toThrow(secondStepNeeded);
  });
});
