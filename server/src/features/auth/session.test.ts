import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePasswordAnswer, profileAnswer } from '@everest/core/contract';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../../../test/harness';
import type { AppState } from '../../http/state';
import { User } from '../users/user.entity';
import { SessionCheck, sessionAuth } from './session';
import { recordingClient } from '../../../test/test-client';

describe('sessions', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const secret = () => new TextEncoder().encode(server.services.config.jwtSecret);
  const profile = (token: string) => client.call('/api/investor/profile', { token });
  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const userId = async (email: string) => (await server.services.orm.em.fork().findOneOrFail(User, { email })).id;

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('lets a signed-in investor read their profile with the bearer token', async () => {
    const res = await profile(await client.signIn('investor@example.com'));
    expect(res.status).toBe(200);
    expect(profileAnswer.parse(res.json).user).toMatchObject({ email: 'investor@example.com', role: 'user' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 401 without a token, with a malformed header and with garbage', async () => {
    expect((await client.call('/api/investor/profile')).status).toBe(401);
    expect((await client.call('/api/investor/profile', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await profile('not.a.token')).status).toBe(401);
    expect((await client.call('/api/investor/profile')).json).toEqual({ error: 'Please sign in to continue.' });
  });

  it('refuses a tampered token', async () => {
    const token = await client.signIn('investor@example.com');
    const [header, , signature] = token.split('.');
    const adminId = await userId('admin@example.com');
    const forgedPayload = base64url({ sub: String(adminId), ver: 0, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600, iss: 'everest-properties', aud: 'investor-portal' });
    expect((await profile(`${header}.${forgedPayload}.${signature}`)).status).toBe(401);
    const flipped = signature?.startsWith('A') ? `B${signature.slice(1)}` : `A${signature?.slice(1)}`;
    expect((await profile(`${token.split('.').slice(0, 2).join('.')}.${flipped}`)).status).toBe(401);
  });

  it('refuses a token with alg none, and one signed with an algorithm outside the allowlist', async () => {
    const id = await userId('admin@example.com');
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: String(id), ver: 0, iat: now, exp: now + 3600, iss: 'everest-properties', aud: 'investor-portal' };
    expect((await profile(`${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`)).status).toBe(401);

    const hs512 = await new SignJWT({ ver: 0, sid: 'AAAAAAAAAAAAAAAAAAAAAA' })
      .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
      .setSubject(String(id))
      .setIssuer('everest-properties')
      .setAudience('investor-portal')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret());
    expect((await profile(hs512)).status).toBe(401);
  });

  it('refuses an expired token and a token without an expiry', async () => {
    const id = await userId('investor@example.com');
    const sign = (claims: SignJWT) =>
      claims.setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(String(id)).setIssuer('everest-properties').setAudience('investor-portal').sign(secret());
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign(new SignJWT({ ver: 0, sid: 'AAAAAAAAAAAAAAAAAAAAAA' }).setIssuedAt(now - 9 * 3600).setExpirationTime(now - 3600));
    expect((await profile(expired)).status).toBe(401);
    const endless = await sign(new SignJWT({ ver: 0, sid: 'AAAAAAAAAAAAAAAAAAAAAA' }).setIssuedAt(now));
    expect((await profile(endless)).status).toBe(401);

    // The same claims with an expiry ahead are accepted: the refusals above are about time alone.
    const fine = await sign(new SignJWT({ ver: 0, sid: 'AAAAAAAAAAAAAAAAAAAAAA' }).setIssuedAt(now).setExpirationTime(now + 60));
    expect((await profile(fine)).status).toBe(200);
  });

  it('issues tokens that expire after 8 hours', async () => {
    const token = await client.signIn('investor2@example.com');
    const { exp, iat } = z
      .object({ exp: z.number(), iat: z.number() })
      .parse(JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()));
    expect(exp - iat).toBe(8 * 3600);
  });

  it("ends a deactivated user's sessions", async () => {
    const token = await client.signIn('margaret.chen@example.com');
    expect((await profile(token)).status).toBe(200);
    await server.services.orm.em.fork().nativeUpdate(User, { email: 'margaret.chen@example.com' }, { isActive: false });
    expect((await profile(token)).status).toBe(401);
  });

  it('ends sessions older than a password change, and the changing session continues with its fresh token', async () => {
    const old = await client.signIn('robert.alvarez@example.com');
    const other = await client.signIn('robert.alvarez@example.com');
    const res = await client.call('/api/investor/change-password', {
      token: old,
      body: { currentPassword: 'Everest@2025', newPassword: 'Summit#Peak9!' },
    });
    expect(res.status, res.text).toBe(200);
    const { token: fresh } = changePasswordAnswer.parse(res.json);
    expect((await profile(old)).status).toBe(401);
    expect((await profile(other)).status).toBe(401);
    expect((await profile(fresh)).status).toBe(200);
  });

  it('ends sessions older than a role change made by any server, once the database announces it', async () => {
    const token = await client.signIn('john.smith@example.com');
    expect((await profile(token)).status).toBe(200); // its record is now in memory
    // Written straight to the database, as another server would: only the notification
    // tells this one, a few milliseconds later.
    const em = server.services.orm.em.fork();
    const user = await em.findOneOrFail(User, { email: 'john.smith@example.com' });
    user.role = 'everest_employee';
    user.tokenVersion += 1;
    await em.flush();
    await expect.poll(async () => (await profile(token)).status, { timeout: 2000, interval: 20 }).toBe(401);
  });

  it('accepts ?token= on the download route only', async () => {
    // A bare app with the real middleware: the download route itself belongs to the documents feature.
    const app = new Koa<AppState>();
    app.use(async (ctx, next) => {
      ctx.state.user = null;
      ctx.state.em = server.services.orm.em.fork();
      await next();
    });
    app.use(sessionAuth(server.services.config, new SessionCheck(server.services.config, server.services.sessionUsers)));
    app.use((ctx) => {
      ctx.body = { user: ctx.state.user };
    });
    const http = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => http.once('listening', () => resolve()));
    try {
      const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      const token = await client.signIn('investor@example.com');
      const answer = z.object({ user: z.object({ email: z.string() }).nullable() });
      const who = async (path: string) => answer.parse(await (await fetch(`${base}${path}`)).json()).user;
      expect(await who(`/api/investor/download/7?token=${token}`)).toMatchObject({ email: 'investor@example.com' });
      expect(await who(`/api/investor/profile?token=${token}`)).toBeNull();
      expect(await who(`/api/investor/download/7?token=${token.slice(0, -2)}xx`)).toBeNull();
    } finally {
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
