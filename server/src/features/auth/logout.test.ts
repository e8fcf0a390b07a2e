import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { investorDocumentsAnswer, loginAnswer, messageAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';

describe('signing out', () => {
  let server: TestServer;
  let second: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let other: ReturnType<typeof recordingClient>;

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    second = await startTestServer({ besides: server });
    client = recordingClient(server);
    other = recordingClient(second);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await second.close();
    await server.close();
  });

  /** For each kind of call made with `token` on one instance: refused as signed out (401)? */
  async function refusals(on: ReturnType<typeof recordingClient>, token: string, documentId: number) {
    const calls = [
      on.call('/api/investor/profile', { token }),
      on.call('/api/investor/documents', { token }),
      on.call(`/api/investor/download/${documentId}?type=user`, { token }),
      on.call(`/api/investor/download/${documentId}?type=user&token=${token}`),
      on.call('/api/admin/users', { token }),
    ];
    return (await Promise.all(calls)).map((res) => res.status === 401);
  }

  const signedIn = [false, false, false, false, false];
  const signedOut = [true, true, true, true, true];

  it('ends that session on every instance, downloads included, and no other session of the user', async () => {
    const admin = 'admin@example.com';
    const ending = await client.signIn(admin);
    const staying = await client.signIn(admin);
    const investorToken = await client.signIn('investor@example.com');
    const documents = investorDocumentsAnswer.parse((await client.call('/api/investor/documents', { token: investorToken })).json).documents;
    const own = documents.find((d) => d.documentType === 'personal');
    expect(own).toBeDefined();
    const documentId = own?.id ?? 0;

    // Both instances know the session before (their caches hold it).
    expect(await refusals(client, ending, documentId)).toEqual(signedIn);
    expect(await refusals(other, ending, documentId)).toEqual(signedIn);

    const res = await client.call('/api/investor/logout', { method: 'POST', token: ending });
    expect(res.status, res.text).toBe(200);
    expect(messageAnswer.parse(res.json).message).toBe('You have been signed out.');

    expect(await refusals(client, ending, documentId)).toEqual(signedOut);
    await expect.poll(() => refusals(other, ending, documentId)).toEqual(signedOut);
    expect(await refusals(other, staying, documentId)).toEqual(signedIn);
    expect(await refusals(client, staying, documentId)).toEqual(signedIn);
  });

  it("ends an investor's session: the old download address no longer opens their document", async () => {
    const token = await client.signIn('investor@example.com');
    const documents = investorDocumentsAnswer.parse((await client.call('/api/investor/documents', { token })).json).documents;
    const own = documents.find((d) => d.documentType === 'personal');
    const address = `/api/investor/download/${own?.id}?type=user&token=${token}`;
    const status = async () => {
      const res = await server.api(address);
      await res.body?.cancel();
      return res.status;
    };
    expect(await status()).toBe(200);

    // Signed out on the other instance: this one learns of it from the database.
    expect((await other.call('/api/investor/logout', { method: 'POST', token })).status).toBe(200);
    await expect.poll(status).toBe(401);
  });

  it('refuses a sign-out without a session', async () => {
    expect((await client.call('/api/investor/logout', { method: 'POST' })).status).toBe(401);
  });

  it('answers the sign-in before the last one, so an investor can notice a sign-in that was not theirs', async () => {
    const signIn = async () => loginAnswer.parse((await client.call('/api/investor/login', { body: { email: 'investor2@example.com', password: demoPassword } })).json).user;
    const first = await signIn();
    const second = await signIn();
    expect(first.lastLoginAt).not.toBeNull();
    expect(second.previousLoginAt).toBe(first.lastLoginAt);
    expect(Date.parse(second.lastLoginAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first.lastLoginAt ?? ''));
  });
});
