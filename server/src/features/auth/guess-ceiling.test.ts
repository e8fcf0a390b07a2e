import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmTotpAnswer, loginAnswer, secondStepRequiredAnswer, signInCodeAnswer, startTotpAnswer } from '@everest/core/contract';
import { signInCodeMessages } from '@everest/core/domain';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';
import { altchaToken } from '../../../test/altcha';
import { queuedMails } from '../../../test/queued-mails';
import { User } from '../users/user.entity';
import { accountGuessCeiling, codesPerSignIn, signInCodeCeiling } from './login-attempts';
import { hashPassword } from './password-hash';
import { freshAddress, recordingClient } from '../../../test/test-client';

const codeAt = (secret: string, offsetSteps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * offsetSteps });
const codeSubject = 'Your Everest Properties sign-in code';
const wrongCodesSubject = 'Your Everest Properties password was used with wrong sign-in codes';

/**
 * The per-account guess ceiling (NIST 800-63B 5.2.2, ASVS 2.2.1): a script with solved challenges
 * from many addresses gets 100 guesses an hour at an account, then nothing it can learn from; the
 * owner signs in with the password and a code e-mailed to the account.
 */
describe('guess ceiling per account', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let counter = 0;
  const em = () => server.services.orm.em.fork();

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true', ALTCHA_COMPLEXITY: '100' } });
    client = recordingClient(server);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  async function newInvestor(): Promise<string> {
    counter += 1;
    const email = `guessed-${counter}@example.com`;
    const fork = em();
    fork.create(User, { email, passwordHash: await hashPassword(demoPassword), firstName: 'Margaret', lastName: `Chen ${counter}` });
    await fork.flush();
    return email;
  }

  /** A sign-in as a script makes it: the proof of work solved, from the address given. */
  const signIn = async (email: string, password: string, from: string, extra: object = {}) => {
    const captcha = await altchaToken((path) => server.api(path, { headers: { 'x-forwarded-for': from } }));
    return client.call('/api/investor/login', { body: { email, password, captcha, ...extra }, from });
  };
  const codeMails = async (email: string) => (await queuedMails(em(), { recipient: email })).filter((m) => m.subject === codeSubject);
  /** The newest code e-mailed to `email`: queued a moment after the answer, so that its time tells nothing. */
  const lastCode = async (email: string) => {
    let code: string | undefined;
    await expect.poll(async () => (code = /sign-in code is (\d{6})/.exec((await codeMails(email)).at(-1)?.text ?? '')?.[1])).toBeDefined();
    return code ?? '';
  };

  // A hundred real sign-ins, each an argon2 check: 27 s at a load of 12 on 2 CPUs, over the
  // default 30 s at a load of 27.
  it('past 100 failed passwords in an hour answers the right password as a wrong one, until the e-mailed code comes with it', async () => {
    const email = await newInvestor();
    // Thirty addresses, each with its solved challenge: no address nears its own limits.
    const addresses = Array.from({ length: 30 }, () => freshAddress());
    for (let i = 0; i < accountGuessCeiling.limit; i++) {
      const res = await signIn(email, `Wrong-guess-${i}!`, addresses[i % addresses.length] ?? '');
      expect(res.status, `guess ${i} ${res.text}`).toBe(401);
    }
    expect(await codeMails(email)).toHaveLength(0);

    const wrong = await signIn(email, 'Wrong-guess-again!', freshAddress());
    const right = await signIn(email, demoPassword, freshAddress());
    expect(wrong.status).toBe(401);
    expect(right.status).toBe(401);
    expect(right.text).toBe(wrong.text);
    expect(signInCodeAnswer.parse(right.json)).toEqual({ error: signInCodeMessages.needed, emailCodeRequired: true });
    // Only the right password sent the owner a code: a stranger's guesses send no mail.
    const code = await lastCode(email);
    expect(await codeMails(email)).toHaveLength(1);

    const from = freshAddress();
    const wrongCode = await signIn(email, demoPassword, from, { emailCode: code === '000000' ? '111111' : '000000' });
    const codeWithoutPassword = await signIn(email, 'Wrong-guess-too!', from, { emailCode: code });
    for (const res of [wrongCode, codeWithoutPassword]) expect(res.text).toBe(wrong.text);

    const owner = await signIn(email, demoPassword, from, { emailCode: ` ${code.slice(0, 3)} ${code.slice(3)} ` });
    expect(owner.status, owner.text).toBe(200);
    expect(loginAnswer.parse(owner.json).user.email).toBe(email);
    // The code works once.
    expect((await signIn(email, demoPassword, freshAddress(), { emailCode: code })).text).toBe(wrong.text);
  }, 120_000);

  it('sends a new code at most once a minute, and ends a code after five wrong tries', async () => {
    const email = await newInvestor();
    await em()
      .getConnection()
      .execute('insert into rate_limit_counters (key, window_start, count) values (?, now(), ?)', [`login-failure:account-hour:${email}`, 150]);
    const asked = await Promise.all([0, 1, 2].map(async () => (await signIn(email, demoPassword, freshAddress())).status));
    expect(asked).toEqual([401, 401, 401]);
    const code = await lastCode(email);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await codeMails(email)).toHaveLength(1);
    const other = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect((await signIn(email, demoPassword, freshAddress(), { emailCode: other })).status).toBe(401);
    expect((await signIn(email, demoPassword, freshAddress(), { emailCode: code })).status).toBe(401);
  });

  // ---- Wrong second-step codes after a known password ------------------------------------

  /** An account with an authenticator app; answers its secret. */
  async function withAuthenticator(email: string): Promise<string> {
    const token = loginAnswer.parse((await client.call('/api/investor/login', { body: { email, password: demoPassword }, from: freshAddress() })).json).token;
    const started = startTotpAnswer.parse(
      (await client.call('/api/investor/second-step/totp/start', { body: { currentPassword: demoPassword }, token })).json,
    );
    const confirmed = await client.call('/api/investor/second-step/totp/confirm', { body: { code: await codeAt(started.secret) }, token });
    expect(confirmed.status, confirmed.text).toBe(200);
    confirmTotpAnswer.parse(confirmed.json);
    return started.secret;
  }
  const passwordStep = async (email: string, from: string, extra: object = {}) => {
    const res = await client.call('/api/investor/login', { body: { email, password: demoPassword, ...extra }, from });
    expect(res.status, res.text).toBe(200);
    return secondStepRequiredAnswer.parse(res.json).mfaToken;
  };
  const verify = (mfaToken: string, code: string, from: string) => client.call('/api/investor/login/verify', { body: { mfaToken, code }, from });

  it('ends a sign-in after a few wrong codes: the password must be given again', async () => {
    const email = await newInvestor();
    const secret = await withAuthenticator(email);
    const from = freshAddress();
    const mfaToken = await passwordStep(email, from);
    for (let i = 1; i <= codesPerSignIn; i++) {
      const res = await verify(mfaToken, '000000', from);
      expect(res.status).toBe(401);
      if (i === codesPerSignIn) expect(res.json).toEqual({ error: expect.stringContaining('please sign in with your password again') });
    }
    const late = await verify(mfaToken, await codeAt(secret, 1), from);
    expect(late.status).toBe(401);
    expect(late.json).toEqual({ error: 'Your sign-in has expired. Please sign in again.' });
  });

  it('never refuses the owner for wrong codes from eleven addresses: it asks for the e-mailed code, and tells them to change the password', async () => {
    const email = await newInvestor();
    const secret = await withAuthenticator(email);
    // Someone with the password: a sign-in and a wrong code each from eleven addresses. The
    // eleventh password step asks for the e-mailed code, which they do not have.
    for (let i = 0; i < signInCodeCeiling.limit; i++) {
      const from = freshAddress();
      expect((await verify(await passwordStep(email, from), '000000', from)).status).toBe(401);
    }
    const eleventh = await client.call('/api/investor/login', { body: { email, password: demoPassword }, from: freshAddress() });
    expect(eleventh.status).toBe(401);
    expect(signInCodeAnswer.parse(eleventh.json).emailCodeRequired).toBe(true);
    const warned = (await queuedMails(em(), { recipient: email })).filter((m) => m.subject === wrongCodesSubject);
    expect(warned).toHaveLength(1);
    expect(warned[0]?.text).toMatch(/change it/);

    // The owner, from an address of their own: the password, then the e-mailed code, then the right code.
    const from = freshAddress();
    const asked = await client.call('/api/investor/login', { body: { email, password: demoPassword }, from });
    expect(asked.status).toBe(401);
    expect(signInCodeAnswer.parse(asked.json).emailCodeRequired).toBe(true);
    const mfaToken = await passwordStep(email, from, { emailCode: await lastCode(email) });
    const signedIn = await verify(mfaToken, await codeAt(secret, 1), from);
    expect(signedIn.status, signedIn.text).toBe(200);

    // Their own session's proofs are not held by a stranger's wrong codes.
    const { token } = loginAnswer.parse(signedIn.json);
    const proof = await client.call('/api/investor/second-step/backup-codes', { body: { currentPassword: demoPassword }, token, from });
    expect(proof.status, proof.text).toBe(200);
  });
});
