import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messageAnswer, validateResetTokenAnswer } from '@everest/core/contract';
import { portalMessages, portalSuccess } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { awayFromRateLimitWindowEnd } from '../../../test/rate-limit-window';
import { queuedMails } from '../../../test/queued-mails';
import { User } from '../users/user.entity';
import { resetRequestMinimumMs } from './auth.service';
import { hashResetToken } from './password-links';
import { PasswordResetToken } from './password-reset-token.entity';
import { freshAddress, recordingClient } from '../../../test/test-client';

// Tests here count up to a rate limit: none may run across the end of a window.
beforeEach(awayFromRateLimitWindowEnd);

const publicUrl = 'https://portal.everest.example';
const linkPattern = new RegExp(`${publicUrl.replace(/\./g, '\\.')}/investor-services\\?resetToken=([A-Za-z0-9_-]+)`);

describe('password reset', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const em = () => server.services.orm.em.fork();

  const requestReset = (email: string, from = freshAddress(), headers: Record<string, string> = {}) =>
    client.call('/api/investor/request-password-reset', { body: { email }, from, headers });
  const validate = async (token: string) => {
    const res = await client.call(`/api/investor/validate-reset-token/${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    return validateResetTokenAnswer.parse(res.json);
  };
  const reset = (token: string, password: string, confirmPassword = password) =>
    client.call('/api/investor/reset-password', { body: { token, password, confirmPassword } });
  const mailsTo = (recipient: string) => queuedMails(em(), { recipient });

  /** Requests a reset and reads the token from the link in the queued e-mail. */
  async function resetLinkFor(email: string): Promise<string> {
    expect((await requestReset(email)).status).toBe(200);
    const mail = (await mailsTo(email)).filter((m) => linkPattern.test(m.text)).at(-1);
    const token = mail ? linkPattern.exec(mail.text)?.[1] : undefined;
    if (!token) throw new Error(`no reset e-mail for ${email}`);
    return token;
  }

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true', PUBLIC_URL: publicUrl } });
    client = recordingClient(server);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('answers a request for a known and an unknown address identically, no sooner than the floor', async () => {
    const started = performance.now();
    const known = await requestReset('investor@example.com');
    const knownMs = performance.now() - started;
    const unknown = await requestReset('nobody-here@example.com');
    const unknownMs = performance.now() - started - knownMs;
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.text).toBe(unknown.text);
    expect(messageAnswer.parse(known.json).message).toBe(portalSuccess.resetLinkSent.description);
    expect(knownMs).toBeGreaterThanOrEqual(resetRequestMinimumMs - 5);
    expect(unknownMs).toBeGreaterThanOrEqual(resetRequestMinimumMs - 5);
    expect(await mailsTo('nobody-here@example.com')).toHaveLength(0);
  });

  it('queues an e-mail whose link points at PUBLIC_URL, whatever host the request named', async () => {
    await requestReset('employee@example.com', freshAddress(), { 'x-forwarded-host': 'evil.example' });
    const [mail] = await mailsTo('employee@example.com');
    expect(mail?.subject).toMatch(/reset/i);
    expect(mail?.status).toBe('pending');
    expect(mail?.text).toMatch(linkPattern);
    expect(mail?.html).toContain(`${publicUrl}/investor-services?resetToken=`);
    expect(mail?.text).not.toContain('evil.example');

    // 32 random bytes, stored only as their SHA-256, for one hour.
    const token = linkPattern.exec(mail?.text ?? '')?.[1] ?? '';
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await em().find(PasswordResetToken, { user: { email: 'employee@example.com' } });
    expect(rows.map((r) => r.tokenHash)).toEqual([hashResetToken(token)]);
    const lifetime = (rows[0]?.expiresAt.getTime() ?? 0) - (rows[0]?.createdAt.getTime() ?? 0);
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000 + 1000);
  });

  it('resets the password once with a link, ends every session and sends a confirmation', async () => {
    const session = await client.signIn('investor2@example.com');
    const older = await resetLinkFor('investor2@example.com');
    const token = await resetLinkFor('investor2@example.com');
    expect(await validate(token)).toEqual({ valid: true, userName: 'Sarah Thompson' });

    const res = await reset(token, 'NewPeak@2026');
    expect(res.status, res.text).toBe(200);
    expect(messageAnswer.parse(res.json).message).toBe(portalSuccess.passwordReset.description);

    // Single use, and the user's other links are used up with it.
    expect(await validate(token)).toEqual({ valid: false, error: portalMessages.invalidResetToken });
    expect((await reset(token, 'Another@2026')).json).toEqual({ error: portalMessages.invalidResetLink.description });
    expect((await validate(older)).valid).toBe(false);

    expect((await client.call('/api/investor/profile', { token: session })).status).toBe(401);
    const signIn = (password: string) =>
      client.call('/api/investor/login', { body: { email: 'investor2@example.com', password }, from: freshAddress() });
    expect((await signIn('Everest@2025')).status).toBe(401);
    expect((await signIn('NewPeak@2026')).status).toBe(200);

    const mails = await mailsTo('investor2@example.com');
    expect(mails.at(-1)?.subject).toMatch(/was reset/);
  });

  it('refuses a link after its hour is up', async () => {
    const token = await resetLinkFor('investor@example.com');
    await em().nativeUpdate(PasswordResetToken, { tokenHash: hashResetToken(token) }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await validate(token)).toEqual({ valid: false, error: portalMessages.invalidResetToken });
    const res = await reset(token, 'NewPeak@2026');
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: portalMessages.invalidResetLink.description });
    expect((await client.call('/api/investor/login', { body: { email: 'investor@example.com', password: 'Everest@2025' }, from: freshAddress() })).status).toBe(200);
  });

  it('refuses an unknown token', async () => {
    expect(await validate('x'.repeat(43))).toEqual({ valid: false, error: portalMessages.invalidResetToken });
    expect((await reset('x'.repeat(43), 'NewPeak@2026')).status).toBe(400);
  });

  it('applies the password rules and the mismatch rule', async () => {
    const token = await resetLinkFor('john.smith@example.com');
    const weak = await reset(token, 'everest');
    expect(weak.status).toBe(400);
    expect(weak.json).toEqual({ error: expect.stringMatching(/Password must contain at least 8 characters, one uppercase letter/) });
    const mismatch = await reset(token, 'NewPeak@2026', 'NewPeak@2027');
    expect(mismatch.status).toBe(400);
    expect(mismatch.json).toEqual({ error: expect.stringContaining(portalMessages.passwordsDoNotMatch) });
    expect(await validate(token)).toMatchObject({ valid: true });
  });

  it('sends no link to a deactivated account, with the same answer', async () => {
    await em().nativeUpdate(User, { email: 'priya.natarajan@example.com' }, { isActive: false });
    const res = await requestReset('priya.natarajan@example.com');
    expect(res.status).toBe(200);
    expect(await mailsTo('priya.natarajan@example.com')).toHaveLength(0);
  });

  it('limits requests per address and per e-mail, identically for unknown addresses', async () => {
    for (const email of ['robert.alvarez@example.com', 'no-account@example.com']) {
      for (let i = 0; i < 5; i += 1) expect((await requestReset(email)).status).toBe(200);
      const limited = await requestReset(email);
      expect(limited.status).toBe(429);
      expect(limited.json).toEqual({ error: expect.stringMatching(/^Too many password reset requests\. Please try again in/) });
    }
    const from = freshAddress();
    for (let i = 0; i < 20; i += 1) expect((await requestReset(`someone${i}@example.com`, from)).status).toBe(200);
    expect((await requestReset('someone-else@example.com', from)).status).toBe(429);
  });
});
