import { describe, expect, it } from 'vitest';
import { sessionLifetimeSeconds, SessionTokens } from './session-token';

describe('SessionTokens', () => {
  const tokens = new SessionTokens('a-test-secret-of-at-least-thirty-two-characters');
  const issuedAt = Date.UTC(2026, 10, 22, 9, 0, 0);

  it('gives every session an id of its own', async () => {
    const [a, b] = await Promise.all([1, 2].map(() => tokens.issue({ userId: 7, tokenVersion: 2, secondStep: false }, issuedAt)));
    const ids = await Promise.all([a, b].map(async (token) => (await tokens.verify(token ?? '', issuedAt))?.sessionId));
    expect(ids[0]).toBeTruthy();
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('keeps answering a verified token until its expiry, and not a moment after', async () => {
    const token = await tokens.issue({ userId: 7, tokenVersion: 2, secondStep: false }, issuedAt);
    const claims = {
      userId: 7,
      tokenVersion: 2,
      sessionId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      expiresAt: new Date(issuedAt + sessionLifetimeSeconds * 1000),
      secondStep: false,
    };
    expect(await tokens.verify(token, issuedAt + 1000)).toEqual(claims);
    // Now remembered: the same answer, then none once the expiry has passed.
    expect(await tokens.verify(token, issuedAt + 2000)).toEqual(claims);
    expect(await tokens.verify(token, issuedAt + sessionLifetimeSeconds * 1000 - 1)).toEqual(claims);
    expect(await tokens.verify(token, issuedAt + sessionLifetimeSeconds * 1000)).toBeNull();
  });

  it('carries whether the session was opened with a second step, and cannot be altered to say it was', async () => {
    const withStep = await tokens.issue({ userId: 7, tokenVersion: 2, secondStep: true }, issuedAt);
    expect((await tokens.verify(withStep, issuedAt))?.secondStep).toBe(true);
    const without = await tokens.issue({ userId: 7, tokenVersion: 2, secondStep: false }, issuedAt);
    expect((await tokens.verify(without, issuedAt))?.secondStep).toBe(false);
    const [header, payload, signature = ''] = without.split('.');
    const claimed = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), mfa: true })).toString('base64url');
    expect(await tokens.verify(`${header}.${claimed}.${signature}`, issuedAt)).toBeNull();
  });

  it('does not let a remembered token vouch for an altered one', async () => {
    const token = await tokens.issue({ userId: 8, tokenVersion: 0, secondStep: false }, issuedAt);
    expect(await tokens.verify(token, issuedAt)).not.toBeNull();
    const [header, payload, signature = ''] = token.split('.');
    const otherUser = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), sub: '9' })).toString('base64url');
    expect(await tokens.verify(`${header}.${otherUser}.${signature}`, issuedAt)).toBeNull();
    expect(await tokens.verify(`${token.slice(0, -2)}xx`, issuedAt)).toBeNull();
  });
});
