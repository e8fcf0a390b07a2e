import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentAnswer, investorDocumentsAnswer } from '@everest/core/contract';
import { currentYear, defaultPropertyGroup } from '@everest/core/domain';
import { demoPassword } from '@everest/fixtures';
import { startTestServer } from '../../../test/harness';
import { samplePdf } from '../../../test/sample-documents';
import { recordingClient } from '../../../test/test-client';
import { cacheTable } from '../../caches';
import { secondStepMissingMessage, secondStepNotUsedMessage } from '../../http/route';
import { SerializedJson } from '../../http/serialized-json';
import { sessionTokens } from '../auth/session';
import { findLiveShare } from './document-policy';
import { sessionLifetimeSeconds } from '../auth/session-token';

// Issue 51: an investor's own list, once in memory, is answered below Koa (hotAnswers). Each
// refusal below is asked twice: once as the session check first sees it, and once with the
// token known, the user's record cached and the list in memory, where the hot path would
// answer if it skipped the check. Both must be Koa's answer.

const signInRefused = { error: 'Please sign in to continue.' };

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The answer's bytes as they left the server, not decompressed; `path` as given, a bare `?` included. */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<Raw> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

function decoded(raw: Raw): string {
  const encoding = raw.headers['content-encoding'];
  const bytes = encoding === 'br' ? brotliDecompressSync(raw.body) : encoding === 'gzip' ? gunzipSync(raw.body) : raw.body;
  return bytes.toString('utf8');
}

/** What may differ between two answers of the same content: their moment and request id. */
function comparable(headers: IncomingHttpHeaders) {
  const { date: _date, 'x-request-id': _id, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

const sessionIdOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sid: string }).sid;

async function startWith(env: Record<string, string>, logTo?: { write: (line: string) => void }) {
  const server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true', ...env }, logTo });
  const client = recordingClient(server);
  const em = () => server.services.orm.em.fork();
  let counter = 0;

  /**
   * An investor of the test's own, with investor@'s properties and password, once the notices of
   * these writes have been acted on: one arriving after the first look would drop the session
   * record that look cached (a test failed so, one run in four).
   */
  async function newInvestor(role = 'user'): Promise<{ id: number; email: string }> {
    const email = `hot-list-${(counter += 1)}-${role}@example.com`;
    const [row] = await em().execute<{ id: number }[]>(
      `insert into users (email, password_hash, first_name, last_name, role, created_at, updated_at)
       select ?, password_hash, 'Hot', 'List', ?, now(), now() from users where email = 'investor@example.com' returning id`,
      [email, role],
    );
    if (!row) throw new Error('no investor made');
    if (role === 'user') {
      await em().execute(
        `insert into property_access (user_id, property_id, created_at)
         select ?, property_id, now() from property_access where user_id = (select id from users where email = 'investor@example.com')`,
        [row.id],
      );
    }
    await settle();
    return { id: row.id, email };
  }

  /**
   * Every change notice sent so far has been acted on (the database delivers them in order, so a
   * mark's own notice comes after them); both caches are empty then.
   */
  async function settle(): Promise<void> {
    const { documentLists, sessionUsers } = server.services;
    const mark = 'test:mark';
    await documentLists.get(mark, async () => SerializedJson.of({ documents: [] }));
    await sessionUsers.get(mark, async () => null);
    await em().execute(`select pg_notify('document_lists_changed', ''), pg_notify('session_users_changed', '')`);
    await expect.poll(() => documentLists.ready(mark) === undefined && sessionUsers.ready(mark) === undefined).toBe(true);
  }

  /** Puts a list for the user in memory, as a full session's look at it would. */
  async function listInMemory(userId: number): Promise<void> {
    await server.services.documentLists.get(`user:${userId}`, async () => SerializedJson.of({ documents: [] }));
  }

  /** What the hot path needs to answer this token is all in memory. */
  function expectHotReady(token: string, userId: number): void {
    expect(sessionTokens(server.services.config).known(token)).toBeDefined();
    expect(server.services.sessionUsers.ready(cacheTable.sessionUsers.key(userId))).not.toBeUndefined();
    expect(server.services.documentLists.ready(`user:${userId}`)).toBeDefined();
  }

  const list = (token: string, headers: Record<string, string> = {}) => client.call('/api/investor/documents', { token, headers });

  /**
   * The answer to `token`, once as the session check first sees it after the change, then with
   * everything the hot path needs in memory: the two must be the same.
   */
  async function refusedTwice(token: string, userId: number): Promise<{ status: number; json: unknown }[]> {
    await settle();
    const first = await list(token);
    await listInMemory(userId);
    if (sessionTokens(server.services.config).known(token)) expectHotReady(token, userId);
    const second = await list(token);
    return [first, second].map(({ status, json }) => ({ status, json }));
  }

  /** A new investor, signed in, whose list has been answered once. */
  async function signedInInvestor(): Promise<{ investor: { id: number; email: string }; token: string }> {
    const investor = await newInvestor();
    const token = await client.signIn(investor.email);
    expect((await list(token)).status).toBe(200);
    return { investor, token };
  }

  return { server, client, em, newInvestor, signedInInvestor, settle, listInMemory, expectHotReady, list, refusedTwice };
}

describe("an investor's own cached document list, answered below Koa", () => {
  const lines: string[] = [];
  let t: Awaited<ReturnType<typeof startWith>>;

  beforeAll(async () => {
    t = await startWith({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(line) });
  });
  afterAll(async () => {
    t.client.expectNoPasswordHashes();
    await t.server.close();
  });

  it('answers with the status, headers and bytes Koa gives, in br, gzip and identity alike', async () => {
    const token = await t.client.signIn('investor@example.com');
    const path = '/api/investor/documents';
    const viaKoa = vi.spyOn(t.server.services.documentLists, 'get');
    try {
      const texts: string[] = [];
      for (const acceptEncoding of ['br', 'gzip, deflate', '']) {
        const headers = { authorization: `Bearer ${token}`, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) };
        // A query string, even an empty one, is the route's to parse: Koa's answer, which also
        // compresses this encoding's form of the list.
        const koa = await rawGet(t.server.url, `${path}?`, headers);
        const calls = viaKoa.mock.calls.length;
        const hot = await rawGet(t.server.url, path, headers);
        expect(viaKoa.mock.calls.length, 'the hot path answered').toBe(calls);
        expect(hot.status).toBe(200);
        expect(koa.status).toBe(200);
        expect(comparable(hot.headers)).toEqual(comparable(koa.headers));
        expect(hot.body.equals(koa.body)).toBe(true);
        expect(hot.headers['cache-control']).toBe('private, no-store');
        expect(hot.headers.vary).toBe('Accept-Encoding');
        expect(hot.headers['content-encoding']).toBe(acceptEncoding === '' ? undefined : acceptEncoding.split(',')[0]);
        texts.push(decoded(hot));
      }
      expect(new Set(texts).size).toBe(1);
      expect(investorDocumentsAnswer.parse(JSON.parse(texts[0] ?? '')).documents.length).toBeGreaterThan(0);
    } finally {
      viaKoa.mockRestore();
    }
  });

  it("notes the session's use (device and address, as Manage Profile lists them), its X-Request-Id and its log line", async () => {
    const investor = await t.newInvestor();
    const first = await t.client.signIn(investor.email);
    expect((await t.list(first)).status).toBe(200);
    // A new session, known since its sign-in, whose first request is answered below Koa.
    const token = await t.client.signIn(investor.email);
    t.expectHotReady(token, investor.id);
    const viaKoa = vi.spyOn(t.server.services.documentLists, 'get');
    const userAgent = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
    const res = await t.client.call('/api/investor/documents', {
      token,
      from: '6.6.6.6, 203.0.113.77',
      headers: { 'user-agent': userAgent, 'x-request-id': 'hot-list-request-1' },
    });
    expect(viaKoa).not.toHaveBeenCalled();
    viaKoa.mockRestore();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('hot-list-request-1');
    const row = async () =>
      (await t.em().execute<{ device: string; client_address: string }[]>('select device, client_address from sessions where session_id = ?', [sessionIdOf(token)]))[0];
    await expect.poll(async () => (await row())?.client_address).toBe('203.0.113.77');
    expect((await row())?.device).toMatch(/Safari/);
    const line = lines.flatMap((l) => l.split('\n')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.requestId === 'hot-list-request-1');
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/api/investor/documents', status: 200, userId: investor.id });
  });

  it('refuses a signed-out session as Koa does', async () => {
    const { investor, token } = await t.signedInInvestor();
    expect((await t.client.call('/api/investor/logout', { body: {}, token })).status).toBe(200);
    expect(await t.refusedTwice(token, investor.id)).toEqual([
      { status: 401, json: signInRefused },
      { status: 401, json: signInRefused },
    ]);
  });

  it('refuses a session ended from another one (Sign out everywhere else) as Koa does', async () => {
    const investor = await t.newInvestor();
    const ended = await t.client.signIn(investor.email);
    const staying = await t.client.signIn(investor.email);
    expect((await t.list(ended)).status).toBe(200);
    expect((await t.client.call('/api/investor/sessions/end-others', { body: {}, token: staying })).status).toBe(200);
    expect(await t.refusedTwice(ended, investor.id)).toEqual([
      { status: 401, json: signInRefused },
      { status: 401, json: signInRefused },
    ]);
    expect((await t.list(staying)).status).toBe(200);
  });

  it("refuses a token after its user's token version moved on (a password change) as Koa does", async () => {
    const { investor, token } = await t.signedInInvestor();
    const changed = await t.client.call('/api/investor/change-password', { token, body: { currentPassword: demoPassword, newPassword: 'NewPeak@2026' } });
    expect(changed.status, changed.text).toBe(200);
    expect(await t.refusedTwice(token, investor.id)).toEqual([
      { status: 401, json: signInRefused },
      { status: 401, json: signInRefused },
    ]);
  });

  it('refuses the token of a deactivated user as Koa does', async () => {
    const { investor, token } = await t.signedInInvestor();
    const admin = await t.client.signIn('admin@example.com');
    const edited = await t.client.call('/api/admin/edit-user', { token: admin, body: { userId: investor.id, isActive: false } });
    expect(edited.status, edited.text).toBe(200);
    expect(await t.refusedTwice(token, investor.id)).toEqual([
      { status: 401, json: signInRefused },
      { status: 401, json: signInRefused },
    ]);
  });

  it('refuses a tampered token as Koa does', async () => {
    const { investor, token } = await t.signedInInvestor();
    const [header, payload, signature = ''] = token.split('.');
    const flipped = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const forged = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const otherPayload = Buffer.from(JSON.stringify({ ...forged, exp: Number(forged.exp) + 3600 })).toString('base64url');
    for (const tampered of [flipped, `${header}.${otherPayload}.${signature}`, `${token}x`]) {
      await t.settle();
      const refusedFirst = await t.list(tampered);
      // The genuine token's record and list in memory, as the hot path would need them.
      expect((await t.list(token)).status).toBe(200);
      t.expectHotReady(token, investor.id);
      const refusedAgain = await t.list(tampered);
      expect([refusedFirst, refusedAgain].map(({ status, json }) => ({ status, json }))).toEqual([
        { status: 401, json: signInRefused },
        { status: 401, json: signInRefused },
      ]);
    }
  });

  it('refuses a token that has expired since it was verified as Koa does', async () => {
    const investor = await t.newInvestor();
    const nearlyOver = Date.now() - (sessionLifetimeSeconds - 2) * 1000;
    const token = await sessionTokens(t.server.services.config).issue({ userId: investor.id, tokenVersion: 0, secondStep: false }, nearlyOver);
    expect((await t.list(token)).status).toBe(200);
    await t.listInMemory(investor.id);
    t.expectHotReady(token, investor.id);
    const expiresAt = (Math.floor(nearlyOver / 1000) + sessionLifetimeSeconds) * 1000;
    await new Promise((resolve) => setTimeout(resolve, expiresAt - Date.now() + 50));
    const refused = await t.list(token);
    expect({ status: refused.status, json: refused.json }).toEqual({ status: 401, json: signInRefused });
  });

  it('answers the new list once an administrator has published a document', async () => {
    const investor = await t.newInvestor();
    const token = await t.client.signIn(investor.email);
    const before = investorDocumentsAnswer.parse((await t.list(token)).json).documents;
    expect(investorDocumentsAnswer.parse((await t.list(token)).json).documents).toEqual(before);
    const admin = await t.client.signIn('admin@example.com');
    const form = new FormData();
    const title = `Hot list notice ${Date.now()}`;
    for (const [key, value] of Object.entries({ title, property: defaultPropertyGroup, year: String(currentYear()), quarter: 'Q1', emailNotification: 'false' })) {
      form.set(key, value);
    }
    form.append('document', new Blob([new Uint8Array(samplePdf(title))]), `${title}.pdf`);
    const published = await t.server.api('/api/admin/upload-document', { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
    expect(published.status).toBe(200);
    const document = documentAnswer.parse(await published.json()).document;
    for (let ask = 0; ask < 2; ask += 1) {
      const documents = investorDocumentsAnswer.parse((await t.list(token)).json).documents;
      expect(documents.find((d) => d.documentType === 'property' && d.id === document.id)?.title).toBe(title);
      expect(documents).toHaveLength(before.length + 1);
    }
  });
});

// A delegate's view through a share (`?onBehalfOf=`), once the share and the list are in memory,
// is answered below Koa too (readingAsKnown). Each refusal is asked twice: as Koa first sees it,
// then with the session, the live shares cache, the share's list and the caller's own list in
// memory, where a hot path that skipped a check would answer. Both must be Koa's answer.
describe("a delegate's cached view of an investor's list (onBehalfOf), answered below Koa", () => {
  const lines: string[] = [];
  let t: Awaited<ReturnType<typeof startWith>>;
  const nothingShared = { error: 'Nothing is shared with you by this investor.' };

  beforeAll(async () => {
    t = await startWith({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(line) });
  });
  afterAll(async () => {
    t.client.expectNoPasswordHashes();
    await t.server.close();
  });

  /** A live share from `owner` to `delegate`: everything, or one of the owner's properties only. */
  async function share(ownerId: number, delegateId: number, onePropertyOnly = false): Promise<number> {
    const [row] = await t.em().execute<{ id: number }[]>(
      `insert into shares (owner_id, delegate_id, personal_scope, categories, property_scope, notify, created_at)
       values (?, ?, 'all', '{}', ?, false, now()) returning id`,
      [ownerId, delegateId, onePropertyOnly ? 'properties' : 'all'],
    );
    if (!row) throw new Error('no share made');
    if (onePropertyOnly) {
      await t.em().execute(
        `insert into share_properties (share_id, property_id) select ?, min(property_id) from property_access where user_id = ?`,
        [row.id, ownerId],
      );
    }
    return row.id;
  }

  const shareKey = (delegateId: number, shareId: number) => `user:${delegateId}:share:${shareId}`;
  const asked = (ownerId: number | string) => `/api/investor/documents?onBehalfOf=${ownerId}`;
  const call = (path: string, token: string) => t.client.call(path, { token });
  const outcome = ({ status, json }: { status: number; json: unknown }) => ({ status, json });

  /** Everything the hot path could answer from for `delegateId`: its own list and `shareIds`' lists, its session known. */
  async function allInMemory(token: string, delegateId: number, shareIds: number[]): Promise<void> {
    await t.listInMemory(delegateId);
    for (const id of shareIds) await t.server.services.documentLists.get(shareKey(delegateId, id), async () => SerializedJson.of({ documents: [] }));
    t.expectHotReady(token, delegateId);
  }

  async function refusedTwice(token: string, delegateId: number, path: string, shareIds: number[], liveShareKey?: string) {
    await t.settle();
    const first = await call(path, token);
    await allInMemory(token, delegateId, shareIds);
    if (liveShareKey) expect(t.server.services.liveShares.ready(liveShareKey), 'the live shares cache knows').not.toBeUndefined();
    const second = await call(path, token);
    return [first, second].map(outcome);
  }

  it("answers a delegate's view with the status, headers and bytes Koa gives, in br, gzip and identity alike, its log line too", async () => {
    const owner = await t.newInvestor();
    const delegate = await t.newInvestor('delegate');
    const shareId = await share(owner.id, delegate.id, true);
    const ownerToken = await t.client.signIn(owner.email);
    const token = await t.client.signIn(delegate.email);
    const own = investorDocumentsAnswer.parse((await t.list(ownerToken)).json).documents;
    const viaKoa = vi.spyOn(t.server.services.documentLists, 'get');
    try {
      const texts: string[] = [];
      for (const acceptEncoding of ['br', 'gzip, deflate', '']) {
        const headers = { authorization: `Bearer ${token}`, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) };
        // A parameter the schema does not name is Koa's to strip: its answer, for the same list.
        const koa = await rawGet(t.server.url, `${asked(owner.id)}&koa=1`, headers);
        const calls = viaKoa.mock.calls.length;
        const requestId = `hot-delegate-${texts.length}`;
        const hot = await rawGet(t.server.url, asked(owner.id), { ...headers, 'x-request-id': requestId });
        expect(viaKoa.mock.calls.length, 'the hot path answered').toBe(calls);
        expect(koa.status).toBe(200);
        expect(hot.status).toBe(200);
        expect(comparable(hot.headers)).toEqual(comparable(koa.headers));
        expect(hot.body.equals(koa.body)).toBe(true);
        expect(hot.headers['cache-control']).toBe('private, no-store');
        expect(hot.headers['x-request-id']).toBe(requestId);
        const line = lines.flatMap((l) => l.split('\n')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.requestId === requestId);
        expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/api/investor/documents', status: 200, userId: delegate.id });
        texts.push(decoded(hot));
      }
      expect(new Set(texts).size).toBe(1);
      // The share's one property, not the owner's whole list: the list of the share's key.
      const shared = investorDocumentsAnswer.parse(JSON.parse(texts[0] ?? '')).documents;
      expect(shared.length).toBeGreaterThan(0);
      expect(shared.length).toBeLessThan(own.length);
      expect(t.server.services.documentLists.ready(shareKey(delegate.id, shareId))?.json).toBe(JSON.stringify({ documents: shared }));
    } finally {
      viaKoa.mockRestore();
    }
  });

  it('ends shared access the moment the owner revokes the share, as Koa does', async () => {
    const owner = await t.newInvestor();
    const delegate = await t.newInvestor('delegate');
    const shareId = await share(owner.id, delegate.id);
    const ownerToken = await t.client.signIn(owner.email);
    const token = await t.client.signIn(delegate.email);
    expect((await call(asked(owner.id), token)).status).toBe(200);
    await allInMemory(token, delegate.id, [shareId]);
    const viaKoa = vi.spyOn(t.server.services.documentLists, 'get');
    expect((await call(asked(owner.id), token)).status).toBe(200);
    expect(viaKoa, 'the hot path answered before the revocation').not.toHaveBeenCalled();
    viaKoa.mockRestore();
    // This server drops its live shares itself: the database's notice may come after the next look.
    const dropped = vi.spyOn(t.server.services.effects, 'changes-shares');
    const revoked = await t.client.call('/api/investor/shares/revoke', { token: ownerToken, body: { shareId } });
    expect(revoked.status, revoked.text).toBe(200);
    expect(dropped).toHaveBeenCalled();
    dropped.mockRestore();
    // At once, before the database's notice: no settle() here.
    const first = outcome(await call(asked(owner.id), token));
    await allInMemory(token, delegate.id, [shareId]);
    expect(t.server.services.liveShares.ready(cacheTable.liveShares.key(owner.id, delegate.id))).toBeNull();
    const second = outcome(await call(asked(owner.id), token));
    expect([first, second]).toEqual([
      { status: 404, json: nothingShared },
      { status: 404, json: nothingShared },
    ]);
  });

  it('refuses a share past its last day, kept in memory since, as Koa does', async () => {
    const owner = await t.newInvestor();
    const delegate = await t.newInvestor('delegate');
    const shareId = await share(owner.id, delegate.id);
    const token = await t.client.signIn(delegate.email);
    expect((await call(asked(owner.id), token)).status).toBe(200);
    const key = cacheTable.liveShares.key(owner.id, delegate.id);
    const live = t.server.services.liveShares.ready(key);
    expect(live?.id).toBe(shareId);
    // Midnight changes no row and raises no notice.
    t.server.services.liveShares.clear();
    if (!live) throw new Error('the share is not in memory');
    await t.server.services.liveShares.get(key, async () => ({ ...live, endsOn: '2000-01-01' }));
    await allInMemory(token, delegate.id, [shareId]);
    expect(outcome(await call(asked(owner.id), token))).toEqual({ status: 404, json: nothingShared });
    expect(outcome(await call(asked(owner.id), token))).toEqual({ status: 404, json: nothingShared });
  });

  it("refuses a view through another owner's share, or one the other way round, as Koa does", async () => {
    const owner = await t.newInvestor();
    const other = await t.newInvestor();
    const delegate = await t.newInvestor('delegate');
    const friend = await t.newInvestor();
    const mine = await share(owner.id, delegate.id);
    const others = await share(other.id, friend.id);
    // owner shares with friend, an investor: friend shares nothing with owner.
    const toFriend = await share(owner.id, friend.id);
    const token = await t.client.signIn(delegate.email);
    const friendToken = await t.client.signIn(friend.email);
    const ownerToken = await t.client.signIn(owner.email);
    expect((await call(asked(owner.id), token)).status).toBe(200);
    expect((await call(asked(other.id), friendToken)).status).toBe(200);
    expect((await call(asked(owner.id), friendToken)).status).toBe(200);
    expect(
      await refusedTwice(token, delegate.id, asked(other.id), [mine, others], cacheTable.liveShares.key(other.id, delegate.id)),
    ).toEqual([
      { status: 404, json: nothingShared },
      { status: 404, json: nothingShared },
    ]);
    expect(
      await refusedTwice(ownerToken, owner.id, asked(friend.id), [toFriend, others], cacheTable.liveShares.key(friend.id, owner.id)),
    ).toEqual([
      { status: 404, json: nothingShared },
      { status: 404, json: nothingShared },
    ]);
  });

  it('refuses the view of an investor who shares nothing with anyone, as Koa does', async () => {
    const owner = await t.newInvestor();
    const nobody = await t.newInvestor();
    const delegate = await t.newInvestor('delegate');
    const mine = await share(owner.id, delegate.id);
    const token = await t.client.signIn(delegate.email);
    expect((await call(asked(owner.id), token)).status).toBe(200);
    expect(await refusedTwice(token, delegate.id, asked(nobody.id), [mine], cacheTable.liveShares.key(nobody.id, delegate.id))).toEqual([
      { status: 404, json: nothingShared },
      { status: 404, json: nothingShared },
    ]);
  });

  it("refuses a delegate's signed-out session as Koa does", async () => {
    const owner = await t.newInvestor();
    const delegate = await t.newInvestor('delegate');
    const shareId = await share(owner.id, delegate.id);
    const token = await t.client.signIn(delegate.email);
    expect((await call(asked(owner.id), token)).status).toBe(200);
    expect((await t.client.call('/api/investor/logout', { body: {}, token })).status).toBe(200);
    expect(await refusedTwice(token, delegate.id, asked(owner.id), [shareId])).toEqual([
      { status: 401, json: signInRefused },
      { status: 401, json: signInRefused },
    ]);
  });

  it('answers an onBehalfOf out of the ordinary as Koa does, whatever is in memory', async () => {
    const owner = await t.newInvestor();
    const delegate = await t.newInvestor('delegate');
    const shareId = await share(owner.id, delegate.id);
    const token = await t.client.signIn(delegate.email);
    const shared = await call(asked(owner.id), token);
    expect(shared.status).toBe(200);
    const id = String(owner.id);
    const cases: [string, number][] = [
      ['onBehalfOf=abc', 400],
      [`onBehalfOf=${id}abc`, 400],
      ['onBehalfOf=-1', 400],
      [`onBehalfOf=-${id}`, 400],
      [`onBehalfOf=${id}.5`, 400],
      [`onBehalfOf=${id}e0`, 400],
      ['onBehalfOf=12345678901234567890', 400],
      // 20 digits that the schema reads as the owner's id: the share's list, on either path.
      [`onBehalfOf=${id.padStart(20, '0')}`, 200],
      [`onBehalfOf=${encodeURIComponent("1' or 1=1--")}`, 400],
      [`onBehalfOf=${encodeURIComponent(`${id}' or 1=1--`)}`, 400],
      [`onBehalfOf=${id}%00`, 400],
      ['onBehalfOf=', 400],
      // Koa strips what the schema does not name: the delegate's own (empty) list.
      [`onBehalfOf[]=${id}`, 200],
      [`onBehalfOf=${id}&onBehalfOf=${id}`, 400],
      [`onBehalfOf=${id}&onBehalfOf=abc`, 400],
    ];
    for (const [query, status] of cases) {
      const path = `/api/investor/documents?${query}`;
      await t.settle();
      // The same query with a parameter the schema does not name: Koa's answer, always.
      const koa = outcome(await call(`${path}&koa=1`, token));
      expect((await call(asked(owner.id), token)).status).toBe(200);
      await allInMemory(token, delegate.id, [shareId]);
      const answer = outcome(await call(path, token));
      expect(answer, query).toEqual(koa);
      expect(answer.status, query).toBe(status);
      if (status === 200) {
        const documents = investorDocumentsAnswer.parse(answer.json).documents;
        if (query.includes('[]')) expect(documents, query).toEqual([]);
        else expect(documents, query).toEqual(investorDocumentsAnswer.parse(shared.json).documents);
      }
    }
  });

  it('refuses a view while sharing is off on this server (ALLOW_SHARING=false), whatever is in memory', async () => {
    const owner = await t.newInvestor();
    const delegate = await t.newInvestor('delegate');
    const shareId = await share(owner.id, delegate.id);
    const off = await startTestServer({ besides: t.server, env: { ALLOW_SHARING: 'false' } });
    try {
      const token = await t.client.signIn(delegate.email);
      const ask = async () => {
        const res = await off.api(asked(owner.id), { headers: { authorization: `Bearer ${token}` } });
        return { status: res.status, json: (await res.json()) as unknown };
      };
      const first = await ask();
      const live = await findLiveShare(off.services.orm.em.fork(), owner.id, delegate.id);
      expect(live?.id).toBe(shareId);
      await off.services.liveShares.get(cacheTable.liveShares.key(owner.id, delegate.id), async () => live);
      await off.services.documentLists.get(shareKey(delegate.id, shareId), async () => SerializedJson.of({ documents: [] }));
      await off.services.documentLists.get(`user:${delegate.id}`, async () => SerializedJson.of({ documents: [] }));
      expect(sessionTokens(off.services.config).known(token)).toBeDefined();
      expect([first, await ask()]).toEqual([
        { status: 404, json: nothingShared },
        { status: 404, json: nothingShared },
      ]);
    } finally {
      await off.close();
    }
  });
});

describe('the cached list of a role that must sign in with two steps (REQUIRE_SECOND_STEP=administrator)', () => {
  let t: Awaited<ReturnType<typeof startWith>>;

  beforeAll(async () => {
    t = await startWith({ REQUIRE_SECOND_STEP: 'administrator' });
  });
  afterAll(() => t.server.close());

  it('refuses a password-only session of an administrator without a second step as Koa does', async () => {
    const admin = await t.newInvestor('administrator');
    const token = await t.client.signIn(admin.email);
    expect(await t.refusedTwice(token, admin.id)).toEqual([
      { status: 403, json: { error: secondStepMissingMessage } },
      { status: 403, json: { error: secondStepMissingMessage } },
    ]);
  });

  it('refuses a password-only session of an administrator who has a second step as Koa does', async () => {
    const admin = await t.newInvestor('administrator');
    await t.em().execute(`insert into second_steps (user_id, totp_enabled_at, created_at, updated_at) values (?, now(), now(), now())`, [admin.id]);
    const passwordOnly = await sessionTokens(t.server.services.config).issue({ userId: admin.id, tokenVersion: 0, secondStep: false });
    const twoStep = await sessionTokens(t.server.services.config).issue({ userId: admin.id, tokenVersion: 0, secondStep: true });
    await sessionTokens(t.server.services.config).verify(passwordOnly);
    expect(await t.refusedTwice(passwordOnly, admin.id)).toEqual([
      { status: 403, json: { error: secondStepNotUsedMessage } },
      { status: 403, json: { error: secondStepNotUsedMessage } },
    ]);
    // The same account's two-step session reads its list.
    expect((await t.list(twoStep)).status).toBe(200);
  });
});
