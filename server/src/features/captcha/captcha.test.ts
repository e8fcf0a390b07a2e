import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { captchaChallengeAnswer, recaptchaSiteKeyAnswer } from '@everest/core/contract';
import { publicMessages } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { awayFromRateLimitWindowEnd } from '../../../test/rate-limit-window';
import { ContactMessage } from '../contact/contact-message.entity';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { captchaMessages } from './captcha-provider';
import { captchaChallengeLimit } from './captcha.routes';
import { CaptchaSolution } from './captcha-solution.entity';
import { altchaToken } from '../../../test/altcha';

// Tests here count up to a rate limit: none may run across the end of a window.
beforeEach(awayFromRateLimitWindowEnd);

const visitor = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  subject: 'Portfolio question',
  message: 'Which properties are open to new investors?',
};

async function stored(server: TestServer) {
  const em = server.services.orm.em.fork();
  return { messages: await em.count(ContactMessage), outbox: await em.count(OutboxMessage) };
}

function contact(server: TestServer, recaptchaToken: string, address: string) {
  return server.api('/api/contact', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
    body: JSON.stringify({ ...visitor, recaptchaToken }),
  });
}

describe('ALTCHA (the default provider)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // TRUST_PROXY: the rate limit test speaks from addresses of its own (X-Forwarded-For).
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => server.close());

  it('issues signed challenges that expire in ten minutes and are never cached', async () => {
    const res = await server.api('/api/captcha/challenge');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const challenge = captchaChallengeAnswer.parse(await res.json());
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
    expect(challenge.parameters.expiresAt * 1000 - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(challenge.parameters.expiresAt * 1000 - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    const second = captchaChallengeAnswer.parse(await (await server.api('/api/captcha/challenge')).json());
    expect(second.signature).not.toBe(challenge.signature);
  });

  it('refuses an address that asks for challenges beyond the limit, and no other', async () => {
    const challenge = (address: string) => server.api('/api/captcha/challenge', { headers: { 'X-Forwarded-For': address } });
    for (let i = 0; i < captchaChallengeLimit.limit; i += 1) expect((await challenge('198.51.100.7')).status).toBe(200);
    const refused = await challenge('198.51.100.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^This address has asked for many verification challenges in a short time\. Please try again in \d+ (seconds|minutes?)\.$/,
    );
    expect((await challenge('198.51.100.8')).status).toBe(200);
  });

  it('lets a message through with a challenge solved at the production difficulty', async () => {
    const started = performance.now();
    const token = await altchaToken(server.api);
    // What a visitor's browser does in its workers; on one Node thread it takes a second or two.
    expect(performance.now() - started).toBeLessThan(15_000);
    const res = await contact(server, token, '127.0.0.1');
    expect(res.status).toBe(200);
    expect(await stored(server)).toEqual({ messages: 1, outbox: 1 });
  });

  it('keeps a spent solution only until its challenge expires', async () => {
    const em = server.services.orm.em.fork();
    const [spent] = await em.find(CaptchaSolution, {});
    expect(spent?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
    em.create(CaptchaSolution, { signature: 'f'.repeat(64), expiresAt: new Date(Date.now() - 1000) });
    await em.flush();

    expect((await contact(server, await altchaToken(server.api), '127.0.0.2')).status).toBe(200);
    const left = await server.services.orm.em.fork().find(CaptchaSolution, {});
    expect(left.map((row) => row.signature)).not.toContain('f'.repeat(64));
    expect(left).toHaveLength(2);
  });
});

// ---- A fake of Google: the real HTTP exchange, answered as Google documents it ---------------

interface FakeGoogle {
  url: string;
  requests: { path: string; body: string }[];
  answer: (path: string, body: string) => { status: number; json: unknown };
  close: () => Promise<void>;
}

async function fakeGoogle(answer: FakeGoogle['answer']): Promise<FakeGoogle> {
  const fake: FakeGoogle = { url: '', requests: [], answer, close: async () => {} };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      fake.requests.push({ path, body });
      const { status, json } = fake.answer(path, body);
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

describe('reCAPTCHA v2, verified with siteverify', () => {
  let google: FakeGoogle;
  let server: TestServer;
  let address = 0;
  const from = () => `198.51.100.${++address}`;

  beforeAll(async () => {
    google = await fakeGoogle((_path, body) => {
      const token = new URLSearchParams(body).get('response');
      const ok = { success: true, challenge_ts: new Date().toISOString(), hostname: 'everest.test' };
      switch (token) {
        case 'good':
          return { status: 200, json: ok };
        case 'other-site':
          return { status: 200, json: { ...ok, hostname: 'phishing.example' } };
        case 'spent':
          return { status: 200, json: { success: false, 'error-codes': ['timeout-or-duplicate'] } };
        case 'google-down':
          return { status: 502, json: {} };
        default:
          return { status: 200, json: { success: false, 'error-codes': ['invalid-input-response'] } };
      }
    });
    server = await startTestServer({
      env: {
        CAPTCHA_PROVIDER: 'recaptcha',
        RECAPTCHA_SITE_KEY: 'site-key-123',
        RECAPTCHA_SECRET_KEY: 'secret-456',
        RECAPTCHA_VERIFY_URL: `${google.url}/recaptcha/api/siteverify`,
        PUBLIC_URL: 'https://everest.test',
        TRUST_PROXY: 'true',
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await google.close();
  });

  it('gives the widget the site key, and lets Google scripts and frames through the CSP', async () => {
    const res = await server.api('/api/recaptcha-site-key');
    expect(recaptchaSiteKeyAnswer.parse(await res.json())).toEqual({ siteKey: 'site-key-123', provider: 'recaptcha' });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' https:\/\/www\.google\.com https:\/\/www\.gstatic\.com/);
    expect(csp).toMatch(/frame-src 'self' https:\/\/www\.google\.com/);
    expect((await server.api('/api/captcha/challenge')).status).toBe(404);
  });

  it('accepts a token Google confirms for our host, sending it the secret and the visitor address', async () => {
    const res = await contact(server, 'good', '198.51.100.200');
    expect(res.status).toBe(200);
    expect(await stored(server)).toEqual({ messages: 1, outbox: 1 });
    const request = google.requests.at(-1);
    expect(request?.path).toBe('/recaptcha/api/siteverify');
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      secret: 'secret-456',
      response: 'good',
      remoteip: '198.51.100.200',
    });
  });

  it.each([
    ['solved on another site', 'other-site', 400, publicMessages.captchaNotDone],
    ['expired or already used (timeout-or-duplicate)', 'spent', 400, captchaMessages.expiredOrUsed],
    ['refused by Google', 'made-up', 400, publicMessages.captchaNotDone],
    ['while Google fails', 'google-down', 503, captchaMessages.unavailable],
  ])('refuses a token %s, storing nothing', async (_name, token, status, error) => {
    const before = await stored(server);
    const res = await contact(server, token, from());
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error });
    expect(await stored(server)).toEqual(before);
  });

  it('answers 503 when Google cannot be reached at all', async () => {
    const unreachable = await startTestServer({
      env: {
        CAPTCHA_PROVIDER: 'recaptcha',
        RECAPTCHA_SITE_KEY: 'k',
        RECAPTCHA_SECRET_KEY: 's',
        // A port nothing listens on (port 9 is "discard", closed on test machines).
        RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
      },
    });
    try {
      const res = await contact(unreachable, 'good', '127.0.0.1');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: captchaMessages.unavailable });
      expect(await stored(unreachable)).toEqual({ messages: 0, outbox: 0 });
    } finally {
      await unreachable.close();
    }
  });
});

const assessmentRequest = z.object({ event: z.object({ token: z.string() }) });

describe('reCAPTCHA Enterprise, verified with an assessment', () => {
  let google: FakeGoogle;
  let server: TestServer;
  let address = 0;
  const from = () => `192.0.2.${++address}`;

  beforeAll(async () => {
    google = await fakeGoogle((_path, body) => {
      const { event } = assessmentRequest.parse(JSON.parse(body));
      const properties = { valid: true, hostname: 'everest.test', action: 'contact', createTime: new Date().toISOString() };
      const answer = (tokenProperties: object) => ({
        status: 200,
        json: { name: 'projects/123/assessments/abc', riskAnalysis: { score: 0.9, reasons: [] }, tokenProperties },
      });
      switch (event.token) {
        case 'good':
          return answer(properties);
        case 'other-action':
          return answer({ ...properties, action: 'login' });
        case 'other-site':
          return answer({ ...properties, hostname: 'phishing.example' });
        case 'expired':
          return answer({ valid: false, invalidReason: 'EXPIRED', hostname: '', action: '' });
        case 'dupe':
          return answer({ valid: false, invalidReason: 'DUPE', hostname: '', action: '' });
        case 'bad-key':
          return { status: 403, json: { error: { code: 403, message: 'API key not valid.' } } };
        default:
          return answer({ valid: false, invalidReason: 'MALFORMED', hostname: '', action: '' });
      }
    });
    server = await startTestServer({
      env: {
        CAPTCHA_PROVIDER: 'recaptcha-enterprise',
        RECAPTCHA_SITE_KEY: 'enterprise-site-key',
        RECAPTCHA_PROJECT_ID: 'everest-prod',
        RECAPTCHA_API_KEY: 'api-key-789',
        RECAPTCHA_ENTERPRISE_URL: `${google.url}/v1`,
        PUBLIC_URL: 'https://everest.test',
        TRUST_PROXY: 'true',
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await google.close();
  });

  it('accepts a valid token for our host and the contact action', async () => {
    const res = await contact(server, 'good', '192.0.2.200');
    expect(res.status).toBe(200);
    expect(await stored(server)).toEqual({ messages: 1, outbox: 1 });
    const request = google.requests.at(-1);
    expect(request?.path).toBe('/v1/projects/everest-prod/assessments?key=api-key-789');
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      event: { token: 'good', siteKey: 'enterprise-site-key', expectedAction: 'contact', userIpAddress: '192.0.2.200' },
    });
    const site = recaptchaSiteKeyAnswer.parse(await (await server.api('/api/recaptcha-site-key')).json());
    expect(site).toEqual({ siteKey: 'enterprise-site-key', provider: 'recaptcha-enterprise' });
  });

  it.each([
    ['for another action', 'other-action', 400, publicMessages.captchaNotDone],
    ['solved on another site', 'other-site', 400, publicMessages.captchaNotDone],
    ['that has expired', 'expired', 400, captchaMessages.expired],
    ['already used', 'dupe', 400, captchaMessages.used],
    ['that is malformed', 'garbage', 400, publicMessages.captchaNotDone],
    ['while our API key is refused', 'bad-key', 503, captchaMessages.unavailable],
  ])('refuses a token %s, storing nothing', async (_name, token, status, error) => {
    const before = await stored(server);
    const res = await contact(server, token, from());
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error });
    expect(await stored(server)).toEqual(before);
  });
});
