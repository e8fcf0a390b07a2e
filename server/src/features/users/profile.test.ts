import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileAnswer, updateProfileAnswer } from '@everest/core/contract';
import { portalSuccess } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { User } from './user.entity';

describe('own profile', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const update = (token: string, body: object) => client.call('/api/investor/update-profile', { token, body });

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('answers the signed-in user under `user`, with the contract fields only', async () => {
    const token = await client.signIn('investor2@example.com');
    const res = await client.call('/api/investor/profile', { token });
    expect(res.status).toBe(200);
    const { user } = profileAnswer.parse(res.json);
    expect(user).toMatchObject({
      firstName: 'Sarah',
      lastName: 'Thompson',
      email: 'investor2@example.com',
      entity: 'Thompson Family Trust',
      role: 'user',
      isActive: true,
    });
    expect(Object.keys(res.json ?? {})).toEqual(['user', 'pendingEmail']);
    expect(profileAnswer.parse(res.json).pendingEmail).toBeNull();
    expect(Object.keys(user).sort()).toEqual(
      ['city', 'email', 'entity', 'firstName', 'id', 'isActive', 'lastLoginAt', 'lastName', 'previousLoginAt', 'role', 'state', 'streetAddress', 'zipCode'].sort(),
    );
  });

  it('saves the profile without a proof while the e-mail stays, first and last name as typed', async () => {
    const token = await client.signIn('investor@example.com');
    const res = await update(token, {
      firstName: 'Mary Ann',
      lastName: 'Carter',
      email: ' Investor@Example.com ',
      entity: 'Carter Holdings LLC',
      streetAddress: '1 Main St.',
      city: 'Pasadena',
      state: 'CA',
      zipCode: '91101',
    });
    expect(res.status, res.text).toBe(200);
    const answer = updateProfileAnswer.parse(res.json);
    expect(answer.message).toBe(portalSuccess.profileUpdated.description);
    expect(answer.pendingEmail).toBeNull();
    expect(answer.user).toMatchObject({
      firstName: 'Mary Ann',
      lastName: 'Carter',
      email: 'investor@example.com',
      entity: 'Carter Holdings LLC',
      streetAddress: '1 Main St.',
      city: 'Pasadena',
    });
    // Nothing to tell anyone: the address did not change.
    expect(await server.services.orm.em.fork().count(OutboxMessage, {})).toBe(0);
  });

  it('leaves fields out of the body as they are, and clears a field sent empty', async () => {
    const token = await client.signIn('margaret.chen@example.com');
    const res = await update(token, { email: 'margaret.chen@example.com', city: '' });
    expect(res.status, res.text).toBe(200);
    expect(updateProfileAnswer.parse(res.json).user).toMatchObject({
      firstName: 'Margaret',
      lastName: 'Chen',
      entity: 'Chen Family Trust',
      city: '',
    });
  });

  it('requires an e-mail address and limits the entity to 200 characters', async () => {
    const token = await client.signIn('investor2@example.com');
    expect((await update(token, { email: '' })).status).toBe(400);
    const long = await update(token, { email: 'investor2@example.com', entity: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.json).toEqual({ error: 'Entity must be 200 characters or fewer.' });
    expect((await update(token, { email: 'investor2@example.com', entity: 'x'.repeat(200) })).status).toBe(200);
  });

  it("refuses to change the built-in administrator's e-mail, but saves the rest of their profile", async () => {
    const token = await client.signIn('admin@example.com');
    const res = await update(token, { email: 'boss@example.com' });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: "The built-in administrator's email address cannot be changed." });
    const ok = await update(token, { email: 'admin@example.com', city: 'Los Angeles' });
    expect(ok.status).toBe(200);
    const stored = await server.services.orm.em.fork().findOneOrFail(User, { email: 'admin@example.com' });
    expect(stored.city).toBe('Los Angeles');
  });

  it('needs a session', async () => {
    expect((await client.call('/api/investor/profile')).status).toBe(401);
    expect((await client.call('/api/investor/update-profile', { body: { email: 'x@example.com' } })).status).toBe(401);
  });
});
