import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactAnswer, recaptchaSiteKeyAnswer } from '@everest/core/contract';
import { publicMessages } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../../test/harness';
import { awayFromRateLimitWindowEnd } from '../../../test/rate-limit-window';
import { AltchaCaptcha } from '../captcha/altcha-captcha';
import { captchaMessages } from '../captcha/captcha-provider';
import { altchaToken, solveAltcha } from '../../../test/altcha';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { SmtpListener } from '../../../test/smtp-listener';
import { ContactMessage } from './contact-message.entity';

// Tests here count up to a rate limit: none may run across the end of a window.
beforeEach(awayFromRateLimitWindowEnd);

const team = 'team@everest.test';

describe('POST /api/contact', () => {
  let smtp: SmtpListener;
  let server: TestServer;
  let nextAddress = 1;

  beforeAll(async () => {
    smtp = await SmtpListener.start();
    server = await startTestServer({
      // TRUST_PROXY: each test speaks from addresses of its own (X-Forwarded-For), so that the
      // production rate limit stays as it is and the tests do not share its counter.
      // ALTCHA_COMPLEXITY: cheap challenges, since this file solves many (captcha.test.ts solves
      // one at the production setting).
      env: {
        SMTP_URL: smtp.url,
        CONTACT_EMAIL: team,
        TRUST_PROXY: 'true',
        PUBLIC_URL: 'https://everest.test',
        ALTCHA_COMPLEXITY: '100',
      },
    });
    // As in production: the worker polls, and the contact route kicks it after each commit.
    server.services.outbox.start();
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  const freshAddress = () => `203.0.113.${nextAddress++}`;
  const post = (body: unknown, address = freshAddress(), raw?: string) =>
    server.api('/api/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
      body: raw ?? JSON.stringify(body),
    });
  const counts = async () => {
    const em = server.services.orm.em.fork();
    return { messages: await em.count(ContactMessage), outbox: await em.count(OutboxMessage), smtp: smtp.received.length };
  };
  const visitor = {
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'Grace.Hopper@Example.com',
    subject: 'Investing in the next DST',
    message: 'Hello,\nI would like to hear about <b>upcoming</b> offerings & "terms".\nThanks',
  };

  it('stores a valid message and e-mails it to the investment team, with Reply-To the visitor', async () => {
    const res = await post({ ...visitor, recaptchaToken: await altchaToken(server.api) });
    expect(res.status).toBe(200);
    expect(contactAnswer.parse(await res.json())).toEqual({ message: publicMessages.contactSuccess.description });

    const stored = await server.services.orm.em.fork().findOneOrFail(ContactMessage, { lastName: 'Hopper' });
    expect(stored).toMatchObject({ ...visitor, email: 'grace.hopper@example.com', clientAddress: '203.0.113.1' });

    // Kicked after the commit: it arrives well before the worker's next 5-second poll.
    await expect.poll(() => smtp.received.length, { timeout: 4_000 }).toBe(1);
    const [mail] = smtp.received;
    expect(mail?.to).toEqual([team]);
    expect(mail?.header('reply-to')).toBe('grace.hopper@example.com');
    expect(mail?.header('subject')).toBe('Website contact: Investing in the next DST');
    expect(mail?.header('from')).toContain('Everest Properties');
    for (const field of ['Grace Hopper', 'grace.hopper@example.com', 'Investing in the next DST', `#${stored.id}`]) {
      expect(mail?.text).toContain(field);
      expect(mail?.html).toContain(field);
    }
    expect(mail?.text).toContain('> I would like to hear about <b>upcoming</b> offerings & "terms".');
    // Every value the visitor typed is escaped in the HTML.
    expect(mail?.html).toContain('I would like to hear about &lt;b&gt;upcoming&lt;/b&gt; offerings &amp; &quot;terms&quot;.');
    expect(mail?.html).not.toContain('<b>upcoming</b>');
    expect(mail?.html).toContain('225 E. Colorado Blvd.');

    // Marked sent when the worker's transaction commits, a moment after SMTP took the message.
    const row = () => server.services.orm.em.fork().findOneOrFail(OutboxMessage, { recipient: team });
    await expect.poll(async () => (await row()).status).toBe('sent');
    expect(await row()).toMatchObject({ attempts: 1, replyTo: 'grace.hopper@example.com', lastError: null });
  });

  it('answers the site-key call with ALTCHA and where its challenge comes from, by default', async () => {
    const res = await server.api('/api/recaptcha-site-key');
    expect(res.status).toBe(200);
    expect(recaptchaSiteKeyAnswer.parse(await res.json())).toEqual({
      siteKey: '',
      provider: 'altcha',
      challengeUrl: '/api/captcha/challenge',
    });
  });

  describe('refuses, storing and sending nothing', () => {
    const complete = async () => ({ ...visitor, recaptchaToken: await altchaToken(server.api) });
    const without = (field: string, body: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(body).filter(([key]) => key !== field));
    type Payload = { challenge: { parameters: Record<string, unknown> }; solution: { derivedKey: string } };
    const forge = async (change: (payload: Payload) => void) => {
      const { recaptchaToken } = await complete();
      const payload = JSON.parse(Buffer.from(recaptchaToken, 'base64').toString('utf8'));
      change(payload);
      return Buffer.from(JSON.stringify(payload)).toString('base64');
    };

    const cases: [string, () => Promise<{ body?: unknown; raw?: string; contentType?: string }>, number, string | RegExp][] = [
      ...['firstName', 'lastName', 'email', 'subject', 'message'].map(
        (field): [string, () => Promise<{ body: unknown }>, number, string] => [
          `a missing ${field}`,
          async () => ({ body: without(field, await complete()) }),
          400,
          publicMessages.requiredFieldsEmpty,
        ],
      ),
      ['a blank subject', async () => ({ body: { ...(await complete()), subject: '   ' } }), 400, publicMessages.requiredFieldsEmpty],
      ['a bad e-mail address', async () => ({ body: { ...(await complete()), email: 'grace@' } }), 400, 'Please enter a valid email address.'],
      ['a message over 5,000 characters', async () => ({ body: { ...(await complete()), message: 'x'.repeat(5001) } }), 400, 'Message must be 5000 characters or fewer.'],
      ['a 1 MB message', async () => ({ body: { ...(await complete()), message: 'x'.repeat(1024 * 1024) } }), 413, 'The request is too large.'],
      ['a first name that is a number', async () => ({ body: { ...(await complete()), firstName: 42 } }), 400, /.+\./],
      ['a message that is an object', async () => ({ body: { ...(await complete()), message: { text: 'hi' } } }), 400, /.+\./],
      ['a body that is an array', async () => ({ body: [await complete()] }), 400, /.+\./],
      ['malformed JSON', async () => ({ raw: '{"firstName": "Grace",' }), 400, 'The request body is not valid JSON.'],
      ['a form-encoded body', async () => ({ raw: 'firstName=Grace', contentType: 'application/x-www-form-urlencoded' }), 400, publicMessages.requiredFieldsEmpty],
      ['no captcha answer', async () => ({ body: without('recaptchaToken', await complete()) }), 400, publicMessages.captchaNotDone],
      ['a captcha answer that is not a payload', async () => ({ body: { ...visitor, recaptchaToken: 'bm90IGEgcGF5bG9hZA==' } }), 400, publicMessages.captchaNotDone],
      ["the widget's test-mode payload", async () => ({ body: { ...visitor, recaptchaToken: Buffer.from(JSON.stringify({ challenge: null, solution: null, test: true })).toString('base64') } }), 400, publicMessages.captchaNotDone],
      ['a forged solution', async () => ({ body: { ...visitor, recaptchaToken: await forge((p) => (p.solution.derivedKey = p.solution.derivedKey.replace(/.$/, (c) => (c === '0' ? '1' : '0')))) } }), 400, publicMessages.captchaNotDone],
      ['a challenge with a longer expiry than was signed', async () => ({ body: { ...visitor, recaptchaToken: await forge((p) => (p.challenge.parameters.expiresAt = 4_000_000_000)) } }), 400, publicMessages.captchaNotDone],
      [
        'a challenge signed with another key',
        async () => {
          const stranger = new AltchaCaptcha({ hmacKey: 'not-the-key-of-this-server', complexity: 10 });
          return { body: { ...visitor, recaptchaToken: await solveAltcha(await stranger.challenge()) } };
        },
        400,
        publicMessages.captchaNotDone,
      ],
      [
        'an expired challenge',
        async () => {
          // Signed with this server's key eleven minutes ago: ten minutes is all a challenge lives.
          const past = new AltchaCaptcha({
            hmacKey: server.services.config.captcha.altchaHmacKey,
            complexity: 10,
            now: () => Date.now() - 11 * 60_000,
          });
          return { body: { ...visitor, recaptchaToken: await solveAltcha(await past.challenge()) } };
        },
        400,
        captchaMessages.expired,
      ],
    ];

    it.each(cases)('%s', async (_name, make, status, error) => {
      const request = await make();
      const before = await counts();
      const res = request.raw
        ? await server.api('/api/contact', {
            method: 'POST',
            headers: { 'Content-Type': request.contentType ?? 'application/json', 'X-Forwarded-For': freshAddress() },
            body: request.raw,
          })
        : await post(request.body);
      expect(res.status).toBe(status);
      const answer: unknown = await res.json();
      expect(answer).toEqual({ error: expect.any(String) });
      expect(answer).toEqual({ error: typeof error === 'string' ? error : expect.stringMatching(error) });
      expect(await counts()).toEqual(before);
    });

    it('a replayed captcha solution, the second time', async () => {
      const body = await complete();
      expect((await post(body)).status).toBe(200);
      await expect.poll(() => smtp.received.length).toBeGreaterThanOrEqual(2);
      const before = await counts();
      const replay = await post({ ...body, subject: 'Second try' });
      expect(replay.status).toBe(400);
      expect(await replay.json()).toEqual({ error: captchaMessages.used });
      expect(await counts()).toEqual(before);
    });

    it('the same solution sent twice at once: exactly one is accepted', async () => {
      const body = await complete();
      const before = await counts();
      const answers = await Promise.all([post(body), post(body), post(body)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400]);
      const after = await counts();
      expect(after.messages - before.messages).toBe(1);
      expect(after.outbox - before.outbox).toBe(1);
      await expect.poll(() => smtp.received.length).toBe(before.smtp + 1);
    });
  });

  it('limits each client address to five messages in ten minutes, with a sentence and Retry-After', async () => {
    const address = freshAddress();
    // Refused attempts count too: a script guessing captcha answers is stopped all the same.
    for (let i = 0; i < 5; i++) expect((await post({ ...visitor, recaptchaToken: 'bm9wZQ==' }, address)).status).toBe(400);
    const before = await counts();
    const res = await post({ ...visitor, recaptchaToken: await altchaToken(server.api) }, address);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({
      error: expect.stringMatching(/^You have sent several messages in a short time\. Please try again in \d+ (minutes?|seconds)\.$/),
    });
    expect(await counts()).toEqual(before);
    // Another address is not affected.
    expect((await post({ ...visitor, recaptchaToken: await altchaToken(server.api) })).status).toBe(200);
  });
});
