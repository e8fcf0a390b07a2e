import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePasswordAnswer, endSessionsAnswer, loginAnswer, sessionsAnswer, type SignedInSession } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createLogger } from '../../logger';
import { pruneExpired } from '../housekeeping/housekeeping';
import { User } from '../users/user.entity';
import { sessionTokens } from './session';
import { deviceName } from './sessions-device';
import { SessionActivity, sessionUseIntervalMs } from './sessions.service';
import { freshAddress, recordingClient } from '../../../test/test-client';

const chromeOnWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const firefoxOnLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('signed-in sessions', () => {
  let server: TestServer;
  let second: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let other: ReturnType<typeof recordingClient>;

  beforeAll(async () => {
    // Client addresses come from X-Forwarded-For, as behind the firm's proxy.
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true' } });
    second = await startTestServer({ besides: server, env: { TRUST_PROXY: 'true' } });
    client = recordingClient(server);
    other = recordingClient(second);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await second.close();
    await server.close();
  });

  /** A sign-in from a browser of its own, and its first request (which records its device). */
  async function signInWith(email: string, userAgent: string, from = freshAddress()): Promise<string> {
    const res = await client.call('/api/investor/login', { body: { email, password: demoPassword }, from, headers: { 'user-agent': userAgent } });
    expect(res.status, res.text).toBe(200);
    const { token } = loginAnswer.parse(res.json);
    expect((await client.call('/api/investor/profile', { token, from, headers: { 'user-agent': userAgent } })).status).toBe(200);
    return token;
  }
  const list = async (token: string, userAgent = chromeOnWindows, from?: string) => {
    const res = await client.call('/api/investor/sessions', { token, from, headers: { 'user-agent': userAgent } });
    expect(res.status, res.text).toBe(200);
    return sessionsAnswer.parse(res.json).sessions;
  };
  const devices = (sessions: SignedInSession[]) => sessions.map((s) => [s.device, s.current]);
  const status = async (on: ReturnType<typeof recordingClient>, token: string) => (await on.call('/api/investor/profile', { token })).status;
  const endOthers = (token: string) => client.call('/api/investor/sessions/end-others', { method: 'POST', token, body: {} });
  const endOne = (token: string, sessionId: string) => client.call('/api/investor/sessions/end', { method: 'POST', token, body: { sessionId } });
  const userId = async (email: string) => (await server.services.orm.em.fork().findOneOrFail(User, { email })).id;

  it('lists two sign-ins from two browsers with their devices and addresses, the current one first and marked', async () => {
    const windows = await signInWith('investor2@example.com', chromeOnWindows, '203.0.113.7');
    const iphone = await signInWith('investor2@example.com', safariOnIphone, '198.51.100.200');

    // The phone's first request is recorded beside it: the list shows it a moment later.
    await expect.poll(async () => devices(await list(windows, chromeOnWindows, '203.0.113.7'))).toEqual([
      ['Chrome on Windows', true],
      ['Safari on iPhone', false],
    ]);
    const fromPhone = await list(iphone, safariOnIphone, '198.51.100.200');
    expect(devices(fromPhone)).toEqual([
      ['Safari on iPhone', true],
      ['Chrome on Windows', false],
    ]);
    expect(fromPhone.map((s) => s.address)).toEqual(['198.51.100.200', '203.0.113.7']);
    for (const session of fromPhone) {
      expect(session.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      // The list names no token nor any part of one.
      expect(windows).not.toContain(session.id);
      expect(iphone).not.toContain(session.id);
      expect(Date.parse(session.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(session.firstSeenAt));
    }
    await client.call('/api/investor/sessions/end-others', { method: 'POST', token: windows, body: {} });
  });

  it('lists a session signed in but not used yet, so that signing out everywhere else reaches it too', async () => {
    const current = await signInWith('investor@example.com', chromeOnWindows);
    const unused = loginAnswer.parse((await client.call('/api/investor/login', { body: { email: 'investor@example.com', password: demoPassword } })).json).token;
    expect(devices(await list(current))).toEqual([
      ['Chrome on Windows', true],
      ['Unknown device', false],
    ]);
    expect(endSessionsAnswer.parse((await endOthers(current)).json).endedCount).toBe(1);
    expect(await status(client, unused)).toBe(401);
  });

  it('signs out everywhere else at once, on this instance and on another, and keeps the caller signed in', async () => {
    const staying = await signInWith('admin@example.com', chromeOnWindows);
    const phone = await signInWith('admin@example.com', safariOnIphone);
    const laptop = await signInWith('admin@example.com', firefoxOnLinux);
    // Both instances hold every session in their caches before.
    for (const token of [staying, phone, laptop]) {
      expect(await status(client, token)).toBe(200);
      expect(await status(other, token)).toBe(200);
    }

    const res = await endOthers(staying);
    expect(res.status, res.text).toBe(200);
    expect(endSessionsAnswer.parse(res.json)).toEqual({ message: 'Signed out of 2 other sessions.', endedCount: 2 });

    // This instance refuses them from the very next request; the other learns it from the database.
    expect(await status(client, phone)).toBe(401);
    expect(await status(client, laptop)).toBe(401);
    await expect.poll(async () => [await status(other, phone), await status(other, laptop)]).toEqual([401, 401]);
    expect(await status(client, staying)).toBe(200);
    expect(await status(other, staying)).toBe(200);
    // The download address with the token in it is refused too.
    expect((await client.call(`/api/investor/download/1?type=user&token=${phone}`)).status).toBe(401);

    expect(devices(await list(staying))).toEqual([['Chrome on Windows', true]]);
    expect(endSessionsAnswer.parse((await endOthers(staying)).json)).toEqual({ message: 'No other session was signed in.', endedCount: 0 });
  });

  it('ends one other session by its id and leaves the rest', async () => {
    const staying = await signInWith('employee@example.com', chromeOnWindows);
    const ending = await signInWith('employee@example.com', safariOnIphone);
    const keeping = await signInWith('employee@example.com', firefoxOnLinux);
    await expect.poll(async () => (await list(staying)).some((s) => s.device === 'Safari on iPhone')).toBe(true);
    const target = (await list(staying)).find((s) => s.device === 'Safari on iPhone');

    const res = await endOne(staying, target?.id ?? '');
    expect(res.status, res.text).toBe(200);
    expect(endSessionsAnswer.parse(res.json)).toEqual({ message: 'That session has been signed out.', endedCount: 1 });
    expect(await status(client, ending)).toBe(401);
    await expect.poll(() => status(other, ending)).toBe(401);
    expect(await status(client, keeping)).toBe(200);
    expect(await status(client, staying)).toBe(200);
    expect((await list(staying)).map((s) => s.device).sort()).toEqual(['Chrome on Windows', 'Firefox on Linux']);

    // Ended already: not found; its own session: sign out instead.
    expect((await endOne(staying, target?.id ?? '')).status).toBe(404);
    const own = (await list(staying)).find((s) => s.current);
    const refused = await endOne(staying, own?.id ?? '');
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ error: 'This is the session you are using: sign out to end it.' });
    expect(await status(client, staying)).toBe(200);
  });

  it("answers 404 for another account's session and ends nothing", async () => {
    const victim = await signInWith('investor2@example.com', safariOnIphone);
    const victimSession = (await list(victim, safariOnIphone)).find((s) => s.current);
    const attacker = await signInWith('investor@example.com', chromeOnWindows);
    const before = await list(victim, safariOnIphone);

    const res = await endOne(attacker, victimSession?.id ?? '');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'That session was not found. It may have ended already.' });
    // The same answer as for an id nobody has: nothing tells that it exists.
    expect((await endOne(attacker, 'AAAAAAAAAAAAAAAAAAAAAA')).json).toEqual(res.json);
    expect(await status(client, victim)).toBe(200);
    expect((await list(victim, safariOnIphone)).map((s) => s.id)).toEqual(before.map((s) => s.id));
    // The attacker's own list holds none of the victim's sessions.
    expect((await list(attacker)).map((s) => s.id)).not.toContain(victimSession?.id);
  });

  it('refuses malformed ids, strangers and tokens of no session', async () => {
    const token = await signInWith('investor@example.com', chromeOnWindows);
    for (const sessionId of ['', 'short', 'A'.repeat(23), 'AAAAAAAAAAAAAAAAAAAA\u0000A', 42, null, ['AAAAAAAAAAAAAAAAAAAAAA']]) {
      const res = await client.call('/api/investor/sessions/end', { method: 'POST', token, body: { sessionId } });
      expect(res.status, JSON.stringify(sessionId)).toBe(400);
    }
    expect((await client.call('/api/investor/sessions/end-others', { method: 'POST', token, body: { all: true } })).status).toBe(400);
    expect((await client.call('/api/investor/sessions')).status).toBe(401);
    expect((await client.call('/api/investor/sessions/end-others', { method: 'POST', body: {} })).status).toBe(401);
    expect((await client.call('/api/investor/sessions/end', { method: 'POST', body: { sessionId: 'AAAAAAAAAAAAAAAAAAAAAA' } })).status).toBe(401);
  });

  it('leaves out sessions signed out of and sessions of an old password', async () => {
    const staying = await signInWith('investor@example.com', chromeOnWindows);
    await endOthers(staying);
    const leaving = await signInWith('investor@example.com', firefoxOnLinux);
    await expect.poll(async () => (await list(staying)).length).toBe(2);
    expect((await client.call('/api/investor/logout', { method: 'POST', token: leaving, body: {} })).status).toBe(200);
    expect(devices(await list(staying))).toEqual([['Chrome on Windows', true]]);

    // A new password ends every older session: the new token's list holds only itself.
    const before = (await list(staying))[0];
    const changed = await client.call('/api/investor/change-password', {
      method: 'POST',
      token: staying,
      body: { currentPassword: demoPassword, newPassword: 'Sessions@2026-new' },
    });
    expect(changed.status, changed.text).toBe(200);
    const fresh = changePasswordAnswer.parse(changed.json).token;
    const after = await list(fresh);
    expect(devices(after)).toEqual([['Chrome on Windows', true]]);
    expect(after[0]?.id).not.toBe(before?.id);
  });

  it('writes a session’s last use at most once a minute, and a failed write fails no request', async () => {
    let now = Date.parse('2026-11-27T16:00:00Z');
    const warnings: string[] = [];
    const logger = { ...createLogger('silent'), warn: (message: string) => void warnings.push(message) };
    const activity = new SessionActivity({ orm: server.services.orm, logger, now: () => now });
    const investorId = await userId('investor@example.com');
    const token = await sessionTokens(server.services.config).issue({ userId: investorId, tokenVersion: 0, secondStep: false });
    const claims = await sessionTokens(server.services.config).verify(token);
    const use = {
      sessionId: claims?.sessionId ?? '',
      userId: investorId,
      tokenVersion: 0,
      expiresAt: new Date(now + 8 * 60 * 60_000),
      userAgent: chromeOnWindows,
      clientAddress: '::ffff:203.0.113.9',
    };
    const row = async () => {
      const [found] = await server.services.orm.em
        .fork()
        .execute<{ last_used_ms: string; client_address: string }[]>(
          'select extract(epoch from last_used_at) * 1000 as last_used_ms, client_address from sessions where session_id = ?',
          [use.sessionId],
        );
      return found && { last_used_at: new Date(Number(found.last_used_ms)), client_address: found.client_address };
    };

    await activity.seen(use);
    expect(await row()).toEqual({ last_used_at: new Date(now), client_address: '203.0.113.9' });

    now += 30_000;
    expect(activity.seen({ ...use, clientAddress: '203.0.113.10' })).toBeNull();
    now += sessionUseIntervalMs - 30_000 - 1;
    expect(activity.seen(use)).toBeNull();
    expect(await row()).toEqual({ last_used_at: new Date(now - sessionUseIntervalMs + 1), client_address: '203.0.113.9' });

    now += 1;
    await activity.seen({ ...use, clientAddress: '203.0.113.10' });
    expect(await row()).toEqual({ last_used_at: new Date(now), client_address: '203.0.113.10' });

    // A write that fails (here: an account that does not exist) is logged, and tried again on the next use.
    const broken = { ...use, sessionId: 'BBBBBBBBBBBBBBBBBBBBBB', userId: 2_000_000_000 };
    await expect(activity.seen(broken)).resolves.toBeUndefined();
    expect(warnings).toEqual(['A session use could not be recorded; its next request tries again.']);
    expect(activity.seen(broken)).not.toBeNull();
  });

  it('writes the uses noted while a write is under way together, once it is over, one account that cannot be written losing no other', async () => {
    const logger = { ...createLogger('silent'), warn: () => undefined };
    const activity = new SessionActivity({ orm: server.services.orm, logger });
    const investorId = await userId('investor@example.com');
    const tokens = sessionTokens(server.services.config);
    const sessions = await Promise.all([1, 2, 3].map(async () => (await tokens.verify(await tokens.issue({ userId: investorId, tokenVersion: 0, secondStep: false })))!));
    const use = (claims: (typeof sessions)[number], clientAddress: string) => ({
      sessionId: claims.sessionId,
      userId: investorId,
      tokenVersion: 0,
      expiresAt: claims.expiresAt,
      userAgent: chromeOnWindows,
      clientAddress,
    });
    const [first, second, third] = sessions.map((claims, i) => use(claims, `203.0.113.${20 + i}`));
    const under = activity.seen(first!);
    const together = activity.seen(second!);
    const missing = { ...third!, userId: 2_000_000_000 };
    expect(activity.seen(missing)).toBe(together);
    expect(together).not.toBe(under);
    await Promise.all([under, together]);
    const rows = await server.services.orm.em
      .fork()
      .execute<{ session_id: string; client_address: string }[]>('select session_id, client_address from sessions where session_id in (?, ?, ?) order by client_address', sessions.map((s) => s.sessionId));
    expect(rows.map((row) => row.client_address)).toEqual(['203.0.113.20', '203.0.113.21']);
    // The use that failed is tried again on its next request.
    expect(activity.seen(missing)).not.toBeNull();
  });

  it('is forgotten by housekeeping once its token has expired', async () => {
    const investorId = await userId('investor@example.com');
    const em = server.services.orm.em.fork();
    await em.execute(
      `insert into sessions (session_id, public_id, user_id, token_version, first_seen_at, last_used_at, expires_at) values
         ('expiredexpiredexpired1', 'expiredpublicpublicid1', ?, 0, now() - interval '9 hours', now() - interval '9 hours', now() - interval '1 hour'),
         ('liveliveliveliveliveli', 'livepublicpublicpubli1', ?, 0, now(), now(), now() + interval '1 hour')`,
      [investorId, investorId],
    );
    const report = await pruneExpired(em, server.services.files);
    expect(report.sessions).toBeGreaterThanOrEqual(1);
    const left = await em.execute<{ session_id: string }[]>(`select session_id from sessions where session_id in ('expiredexpiredexpired1', 'liveliveliveliveliveli')`);
    expect(left).toEqual([{ session_id: 'liveliveliveliveliveli' }]);
  });
});

describe('device names', () => {
  it.each([
    [chromeOnWindows, 'Chrome on Windows'],
    [safariOnIphone, 'Safari on iPhone'],
    [firefoxOnLinux, 'Firefox on Linux'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari on macOS'],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iPad',
    ],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    [`${chromeOnWindows} Edg/131.0.0.0`, 'Edge on Windows'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) @everest/desktop/0.1.0 Chrome/140.0.0.0 Electron/45.0.0 Safari/537.36',
      'Everest desktop app',
    ],
    ['curl/8.5.0', 'curl'],
    ['', 'Unknown device'],
    [undefined, 'Unknown device'],
    ['\u0000\u0001', 'Unknown device'],
    ['<script>alert(1)</script>', 'Unknown device'],
  ])('names %j as %j', (userAgent, name) => {
    expect(deviceName(userAgent)).toBe(name);
  });

  it('keeps a name short whatever the header holds', () => {
    expect(deviceName(`${'x'.repeat(10_000)}/1.0`).length).toBeLessThanOrEqual(100);
  });
});
