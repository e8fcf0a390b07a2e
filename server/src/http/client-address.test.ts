import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionsAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../test/harness';
import { addressFailureBudget } from '../features/auth/login-attempts';
import { recordingClient } from '../../test/test-client';

// Behind the firm's proxy (TRUST_PROXY=true), the client's address is the one the proxy added:
// the last entry of X-Forwarded-For. Entries before it are whatever the client itself sent, so
// trusting the first one let anyone choose their address, and with it a fresh sign-in budget.
describe('the client address behind a proxy', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true' } });
    client = recordingClient(server);
  });
  afterAll(() => server.close());

  it('is the entry the proxy appended, not one the client wrote before it', async () => {
    // What a proxy forwards when the client sent 'X-Forwarded-For: 6.6.6.6' itself.
    const chain = '6.6.6.6, 203.0.113.50';
    const token = await client.signIn('investor2@example.com', undefined, chain);
    const res = await client.call('/api/investor/sessions', { token, from: chain });
    expect(res.status, res.text).toBe(200);
    const current = sessionsAnswer.parse(res.json).sessions.find((s) => s.current);
    expect(current?.address).toBe('203.0.113.50');
  });

  it("spends that address's sign-in budget whatever the client writes before it", async () => {
    // Wrong passwords for accounts of their own (so no account's limit is reached), each with a
    // different forged first entry, all from one real address: past its budget, a 429.
    const statuses: number[] = [];
    for (let i = 0; i <= addressFailureBudget.burst; i++) {
      const res = await client.call('/api/investor/login', {
        body: { email: `nobody-${i}@example.com`, password: 'not the password' },
        from: `10.9.${i}.1, 198.51.100.77`,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, addressFailureBudget.burst).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
