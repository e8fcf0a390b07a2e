import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePasswordAnswer, loginAnswer, secondStepRequiredAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { portalMessages } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { User } from '../users/user.entity';
import { hashPassword } from './password-hash';
import { SecondStep } from './second-step/second-step.entity';
import { secondStepSecrets } from './second-step/second-step-secrets';
import { freshAddress, recordingClient } from '../../../test/test-client';

describe('POST /api/investor/change-password', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const change = (token: string, body: object) => client.call('/api/investor/change-password', { token, body });
  const signInWith = (email: string, password: string) =>
    client.call('/api/investor/login', { body: { email, password }, from: freshAddress() });

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true' } });
    client = recordingClient(server);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('needs a session', async () => {
    expect((await client.call('/api/investor/change-password', { body: { newPassword: 'NewPeak@2026' } })).status).toBe(401);
  });

  it('asks an investor for the current password, and refuses a wrong one with the catalogue sentence', async () => {
    const token = await client.signIn('investor@example.com');
    const missing = await change(token, { newPassword: 'NewPeak@2026' });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'Please enter your current password.' });
    const wrong = await change(token, { currentPassword: 'Everest@2024', newPassword: 'NewPeak@2026' });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: portalMessages.changePasswordFailed });
    // Nothing changed, and the session still works.
    expect((await client.call('/api/investor/profile', { token })).status).toBe(200);
  });

  it('applies the password rules to the new password', async () => {
    const token = await client.signIn('employee@example.com');
    const res = await change(token, { currentPassword: 'Everest@2025', newPassword: 'Everest2025' });
    expect(res.status).toBe(400);
    // The error middleware puts the field's name before catalogue texts that end without a period.
    expect(res.json).toEqual({ error: expect.stringContaining('Password must contain one special character (@$!%*?&)') });
  });

  it("changes an employee's password, answers a fresh session and mails a notice", async () => {
    const token = await client.signIn('employee@example.com');
    const res = await change(token, { currentPassword: 'Everest@2025', newPassword: 'NewPeak@2026' });
    expect(res.status, res.text).toBe(200);
    const answer = changePasswordAnswer.parse(res.json);
    expect((await client.call('/api/investor/profile', { token })).status).toBe(401);
    expect((await client.call('/api/investor/profile', { token: answer.token })).status).toBe(200);
    expect((await signInWith('employee@example.com', 'Everest@2025')).status).toBe(401);
    expect((await signInWith('employee@example.com', 'NewPeak@2026')).status).toBe(200);
    const mails = await server.services.orm.em.fork().find(OutboxMessage, { recipient: 'employee@example.com' });
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/password was changed/)]);
  });

  it('asks an administrator for the current password too, and ignores the spec\'s override value (DECISIONS.md)', async () => {
    const token = await client.signIn('admin@example.com');
    for (const currentPassword of [undefined, '', 'override']) {
      const res = await change(token, { currentPassword, newPassword: 'NewPeak@2026' });
      expect(res.status, res.text).toBe(400);
      expect(res.json).toEqual({ error: currentPassword === 'override' ? portalMessages.changePasswordFailed : portalMessages.enterCurrentPassword });
    }
    expect((await signInWith('admin@example.com', 'NewPeak@2026')).status).toBe(401);
    expect((await client.call('/api/investor/profile', { token })).status).toBe(200);

    const res = await change(token, { currentPassword: demoPassword, newPassword: 'NewPeak@2026' });
    expect(res.status, res.text).toBe(200);
    expect((await signInWith('admin@example.com', 'NewPeak@2026')).status).toBe(200);
  });

  it('takes a current second-step code instead of the password, once', async () => {
    const email = 'second.step.changer@example.com';
    const em = server.services.orm.em.fork();
    const user = em.create(User, { email, passwordHash: await hashPassword(demoPassword), firstName: 'Code', lastName: 'Changer', role: 'administrator' });
    const secret = generateSecret();
    em.create(SecondStep, { user, totpSecret: secondStepSecrets(server.services.config.secondStep.key).encrypt(secret), totpEnabledAt: new Date() });
    await em.flush();
    const mfa = secondStepRequiredAnswer.parse((await signInWith(email, demoPassword)).json);
    const code = await generate({ secret });
    const verified = await client.call('/api/investor/login/verify', { body: { mfaToken: mfa.mfaToken, code }, from: freshAddress() });
    const token = loginAnswer.parse(verified.json).token;

    // The code the sign-in used is spent; a wrong one is refused; the next step's code works.
    expect((await change(token, { code, newPassword: 'NewPeak@2026' })).status).toBe(400);
    expect((await change(token, { code: '000000', newPassword: 'NewPeak@2026' })).status).toBe(400);
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const res = await change(token, { code: next, newPassword: 'NewPeak@2026' });
    expect(res.status, res.text).toBe(200);
    expect((await client.call('/api/investor/login', { body: { email, password: 'NewPeak@2026' }, from: freshAddress() })).status).toBe(200);
  });

  it('refuses a code from an account without a second step, asking for the password', async () => {
    const token = await client.signIn('investor2@example.com');
    const res = await change(token, { code: '123456', newPassword: 'NewPeak@2026' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.stringContaining('Please enter your current password.') });
  });

  it('counts wrong current passwords with failed sign-ins, up to 429', async () => {
    const token = await client.signIn('john.smith@example.com');
    for (let i = 0; i < 10; i += 1) {
      expect((await change(token, { currentPassword: `Wrong@${i}aaa`, newPassword: 'NewPeak@2026' })).status).toBe(400);
    }
    expect((await change(token, { currentPassword: 'Everest@2025', newPassword: 'NewPeak@2026' })).status).toBe(429);
  });
});
