import { LockMode } from '@mikro-orm/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import {
  backupCodesAnswer,
  errorAnswer,
  keepOneSecondStep,
  loginAnswer,
  messageAnswer,
  passkeyCreationOptionsAnswer,
  passkeyRequestOptionsAnswer,
  registerPasskeyAnswer,
  secondStepRemovedAnswer,
  secondStepRequiredAnswer,
  secondStepStatusAnswer,
  startTotpAnswer,
} from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../../test/harness';
import { awayFromRateLimitWindowEnd } from '../../../../test/rate-limit-window';
import { testAuthenticator, type TestAuthenticator } from '../../../../test/test-authenticator';
import { AuditEvent } from '../../audit/audit-event.entity';
import { OutboxMessage } from '../../mail/outbox-message.entity';
import { User } from '../../users/user.entity';
import { codesPerSignIn, proofFailureLimit } from '../login-attempts';
import { hashPassword } from '../password-hash';
import { freshAddress, recordingClient } from '../../../../test/test-client';
import { Passkey, PasskeyChallenge } from './passkey.entity';
import { BackupCode } from './second-step.entity';

// Tests here count up to a rate limit: none may run across the end of a window.
beforeEach(awayFromRateLimitWindowEnd);

type Client = ReturnType<typeof recordingClient>;

// The relying party is the site of PUBLIC_URL, whatever address the test server listens on.
const publicUrl = 'https://portal.everest.example';

/** The owner proof each change of the second step asks for (issue 33): here the current password. */
const withPassword = { currentPassword: demoPassword };

/** The code an authenticator app shows `offsetSteps` 30-second steps from now. */
const codeAt = (secret: string, offsetSteps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * offsetSteps });

let userCounter = 0;
async function newUser(server: TestServer, role: 'user' | 'administrator' = 'user'): Promise<string> {
  userCounter += 1;
  const email = `passkey-${userCounter}@example.com`;
  const em = server.services.orm.em.fork();
  em.create(User, { email, role, passwordHash: await hashPassword(demoPassword), firstName: 'Pass', lastName: `Key ${userCounter}` });
  await em.flush();
  return email;
}

async function signInToken(client: Client, email: string): Promise<string> {
  const res = await client.call('/api/investor/login', { body: { email, password: demoPassword }, from: freshAddress() });
  expect(res.status, res.text).toBe(200);
  return loginAnswer.parse(res.json).token;
}

/** Registers a new passkey through the API, as the browser would after the user touched it. */
async function registerPasskey(client: Client, token: string, name: string, authenticator = testAuthenticator(publicUrl)) {
  const optionsRes = await client.call('/api/investor/second-step/passkeys/options', { body: withPassword, token });
  expect(optionsRes.status, optionsRes.text).toBe(200);
  const { options } = passkeyCreationOptionsAnswer.parse(optionsRes.json);
  const res = await client.call('/api/investor/second-step/passkeys', { body: { name, response: authenticator.register(options) }, token });
  expect(res.status, res.text).toBe(200);
  const answer = registerPasskeyAnswer.parse(res.json);
  // The account's first second step ends its sessions; the caller's goes on in `token`.
  return { authenticator, answer, token: answer.token ?? token };
}

async function passwordStep(client: Client, email: string, from: string) {
  const res = await client.call('/api/investor/login', { body: { email, password: demoPassword }, from });
  expect(res.status, res.text).toBe(200);
  return secondStepRequiredAnswer.parse(res.json);
}

async function signInOptions(client: Client, mfaToken: string, from: string) {
  const res = await client.call('/api/investor/login/passkey-options', { body: { mfaToken }, from });
  expect(res.status, res.text).toBe(200);
  return passkeyRequestOptionsAnswer.parse(res.json).options;
}

const verifyWith = (client: Client, mfaToken: string, passkey: unknown, from: string) =>
  client.call('/api/investor/login/verify', { body: { mfaToken, passkey }, from });

/** Password, a fresh challenge, and the authenticator's signature of it: the whole sign-in. */
async function signInWithPasskey(client: Client, email: string, authenticator: TestAuthenticator, from = freshAddress()) {
  const { mfaToken } = await passwordStep(client, email, from);
  const options = await signInOptions(client, mfaToken, from);
  return verifyWith(client, mfaToken, authenticator.authenticate(options), from);
}

describe('passkeys as the second step', () => {
  let server: TestServer;
  let client: Client;
  const em = () => server.services.orm.em.fork();
  const mailsTo = (recipient: string) => em().find(OutboxMessage, { recipient }, { orderBy: { id: 'asc' } });

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true', PUBLIC_URL: publicUrl } });
    client = recordingClient(server);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('registers a passkey for the site of PUBLIC_URL: the first one turns two-step sign-in on, with backup codes and a notice', async () => {
    const email = await newUser(server);
    let token = await signInToken(client, email);
    const optionsRes = await client.call('/api/investor/second-step/passkeys/options', { body: withPassword, token });
    const { options } = passkeyCreationOptionsAnswer.parse(optionsRes.json);
    expect(options.rp).toEqual({ id: 'portal.everest.example', name: 'Everest Properties' });
    expect(options.user.name).toBe(email);
    expect(options.attestation).toBe('none');
    // The established algorithms only, whatever the runtime offers (EdDSA, ES256, RS256).
    expect(options.pubKeyCredParams.map((p) => p.alg)).toEqual([-8, -7, -257]);
    // The challenge is kept by the database, not by this process.
    expect(await em().count(PasskeyChallenge, { challenge: options.challenge, purpose: 'register' })).toBe(1);

    const authenticator = testAuthenticator(publicUrl);
    const res = await client.call('/api/investor/second-step/passkeys', { body: { name: ' Work laptop ', response: authenticator.register(options) }, token });
    expect(res.status, res.text).toBe(200);
    const answer = registerPasskeyAnswer.parse(res.json);
    expect(answer.backupCodes).toHaveLength(10);
    // Two-step sign-in is on: the session it was turned on in goes on in a fresh token, the old one ended.
    expect((await client.call('/api/investor/second-step', { token })).status).toBe(401);
    token = answer.token ?? '';
    expect(await em().count(PasskeyChallenge, { challenge: options.challenge })).toBe(0);

    const status = secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json);
    expect(status).toMatchObject({ totp: false, backupCodesLeft: 10, required: false });
    expect(status.passkeys.map((p) => [p.name, p.lastUsedAt])).toEqual([['Work laptop', null]]);
    expect((await mailsTo(email)).at(-1)?.subject).toBe('A passkey was added to your Everest Properties investor portal account');

    // A second one makes no new codes: the set the user saved still works.
    const second = await registerPasskey(client, token, 'Phone');
    expect(second.answer.backupCodes).toEqual([]);
    expect(second.answer.token).toBeUndefined();
  });

  it('signs in with the password, then a passkey: the counter and the time of use are kept', async () => {
    const email = await newUser(server);
    const { authenticator } = await registerPasskey(client, await signInToken(client, email), 'Laptop');
    const from = freshAddress();

    const challenge = await passwordStep(client, email, from);
    expect(challenge.methods).toEqual(['passkey', 'backup-code']);
    const options = await signInOptions(client, challenge.mfaToken, from);
    expect(options.rpId).toBe('portal.everest.example');
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.credentialId]);

    const signedIn = await verifyWith(client, challenge.mfaToken, authenticator.authenticate(options), from);
    expect(signedIn.status, signedIn.text).toBe(200);
    const { token, user } = loginAnswer.parse(signedIn.json);
    expect(user.email).toBe(email);
    expect((await client.call('/api/investor/profile', { token })).status).toBe(200);
    const row = await em().findOneOrFail(Passkey, { credentialId: authenticator.credentialId });
    expect(row.counter).toBe(1);
    expect(row.lastUsedAt).toBeInstanceOf(Date);
  });

  it('refuses a replayed challenge: a signed answer works once, and a registration challenge too', async () => {
    const email = await newUser(server);
    const { authenticator, token } = await registerPasskey(client, await signInToken(client, email), 'Laptop');
    const from = freshAddress();

    const first = await passwordStep(client, email, from);
    const options = await signInOptions(client, first.mfaToken, from);
    const signed = authenticator.authenticate(options);
    expect((await verifyWith(client, first.mfaToken, signed, from)).status).toBe(200);

    // The same signature with the next sign-in's mfaToken: its challenge is used up.
    const second = await passwordStep(client, email, from);
    const replayed = await verifyWith(client, second.mfaToken, signed, from);
    expect(replayed.status).toBe(401);
    expect(errorAnswer.parse(replayed.json).error).toBe('That passkey was not accepted. Please try again.');
    // A fresh signature of the old challenge, from the real authenticator: refused too.
    expect((await verifyWith(client, second.mfaToken, authenticator.authenticate(options), from)).status).toBe(401);
    // The sign-in itself is still open (two wrong tries of its three): a fresh challenge signs in.
    const fresh = await signInOptions(client, second.mfaToken, from);
    expect((await verifyWith(client, second.mfaToken, authenticator.authenticate(fresh), from)).status).toBe(200);
    // A challenge that was never handed out.
    const third = await passwordStep(client, email, from);
    expect((await verifyWith(client, third.mfaToken, authenticator.authenticate(options, 'bm90LWEtY2hhbGxlbmdl'), from)).status).toBe(401);

    // Registration: an options challenge answers one registration, right or wrong.
    const optionsRes = await client.call('/api/investor/second-step/passkeys/options', { body: withPassword, token });
    const creation = passkeyCreationOptionsAnswer.parse(optionsRes.json).options;
    const other = testAuthenticator(publicUrl);
    const wrongOrigin = testAuthenticator('https://phish.example').register(creation);
    expect((await client.call('/api/investor/second-step/passkeys', { body: { name: 'Phish', response: wrongOrigin }, token })).status).toBe(400);
    const late = await client.call('/api/investor/second-step/passkeys', { body: { name: 'Other', response: other.register(creation) }, token });
    expect(late.status).toBe(400);
    expect(errorAnswer.parse(late.json).error).toBe('The passkey could not be added: its answer did not match. Please try again.');
  });

  it("refuses another account's passkey, a key nobody registered, and an expired challenge", async () => {
    const email = await newUser(server);
    const { authenticator: mine } = await registerPasskey(client, await signInToken(client, email), 'Mine');
    const { authenticator: theirs } = await registerPasskey(client, await signInToken(client, await newUser(server)), 'Theirs');
    const stranger = testAuthenticator(publicUrl);
    const from = freshAddress();
    const { mfaToken } = await passwordStep(client, email, from);

    for (const authenticator of [theirs, stranger]) {
      const options = await signInOptions(client, mfaToken, from);
      const refused = await verifyWith(client, mfaToken, authenticator.authenticate(options), from);
      expect(refused.status).toBe(401);
    }
    // Signed by the right key under another credential id: the signature does not match (the
    // sign-in's third wrong try, which ends it).
    const options = await signInOptions(client, mfaToken, from);
    const forged = { ...stranger.authenticate(options), id: mine.credentialId, rawId: mine.credentialId };
    expect((await verifyWith(client, mfaToken, forged, from)).status).toBe(401);

    const { mfaToken: next } = await passwordStep(client, email, from);
    const expiring = await signInOptions(client, next, from);
    await em().nativeUpdate(PasskeyChallenge, { challenge: expiring.challenge }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await verifyWith(client, next, mine.authenticate(expiring), from)).status).toBe(401);
  });

  it('refuses a passkey whose signature counter went back (a cloned authenticator)', async () => {
    const email = await newUser(server);
    const { authenticator } = await registerPasskey(client, await signInToken(client, email), 'Key');
    expect((await signInWithPasskey(client, email, authenticator)).status).toBe(200);
    expect((await signInWithPasskey(client, email, authenticator)).status).toBe(200);
    authenticator.counter = 0;
    expect((await signInWithPasskey(client, email, authenticator)).status).toBe(401);
  });

  it('counts refused passkeys as wrong codes: a few end the sign-in, and the password must be given again', async () => {
    const email = await newUser(server);
    const { authenticator } = await registerPasskey(client, await signInToken(client, email), 'Key');
    const stranger = testAuthenticator(publicUrl);
    const { mfaToken } = await passwordStep(client, email, freshAddress());

    for (let i = 0; i < codesPerSignIn; i++) {
      const from = freshAddress();
      const options = await signInOptions(client, mfaToken, from);
      expect((await verifyWith(client, mfaToken, stranger.authenticate(options), from)).status).toBe(401);
    }
    const from = freshAddress();
    const ended = await client.call('/api/investor/login/passkey-options', { body: { mfaToken }, from });
    expect(ended.status).toBe(401);
    expect(errorAnswer.parse(ended.json).error).toBe('Your sign-in has expired. Please sign in again.');
    expect((await signInWithPasskey(client, email, authenticator)).status).toBe(200);
  });

  it('removes a passkey for the password; removing the last turns two-step sign-in off, backup codes too, with a notice', async () => {
    const email = await newUser(server);
    const { token } = await registerPasskey(client, await signInToken(client, email), 'Laptop');
    await registerPasskey(client, token, 'Phone');
    const [laptop, phone] = secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json).passkeys;
    if (!laptop || !phone) throw new Error('two passkeys expected');

    const wrong = await client.call('/api/investor/second-step/passkeys/remove', { body: { passkeyId: laptop.id, currentPassword: 'not it' }, token });
    expect(wrong.status).toBe(400);
    const removed = await client.call('/api/investor/second-step/passkeys/remove', { body: { passkeyId: laptop.id, ...withPassword }, token });
    expect(removed.status, removed.text).toBe(200);
    expect(secondStepRemovedAnswer.parse(removed.json)).toEqual({ message: 'The passkey "Laptop" is removed.' });
    expect((await mailsTo(email)).at(-1)?.text).toContain('Your other second steps still work.');
    expect(secondStepRequiredAnswer.parse((await client.call('/api/investor/login', { body: { email, password: demoPassword }, from: freshAddress() })).json).methods).toContain('passkey');

    const last = await client.call('/api/investor/second-step/passkeys/remove', { body: { passkeyId: phone.id, ...withPassword }, token });
    const lastAnswer = secondStepRemovedAnswer.parse(last.json);
    expect(lastAnswer.message).toBe('The passkey "Phone" is removed, and two-step sign-in is off.');
    expect((await client.call('/api/investor/second-step', { token })).status).toBe(401);
    const goesOn = lastAnswer.token ?? '';
    expect((await mailsTo(email)).at(-1)?.subject).toBe('A passkey was removed from your Everest Properties investor portal account');
    expect(await em().count(BackupCode, { user: { email } })).toBe(0);
    await signInToken(client, email);
    // Another user's passkey id is not found on this account.
    const { token: otherToken } = await registerPasskey(client, await signInToken(client, await newUser(server)), 'Theirs');
    const [theirs] = secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token: otherToken })).json).passkeys;
    expect((await client.call('/api/investor/second-step/passkeys/remove', { body: { passkeyId: theirs?.id, ...withPassword }, token: goesOn })).status).toBe(404);
  });

  it('asks for an owner proof before each change of the second step, and counts every wrong password as a failed proof', async () => {
    const email = await newUser(server);
    let token = await signInToken(client, email);
    const call = (path: string, body: object) => client.call(`/api/investor/second-step/${path}`, { body, token });
    /** Refused without a proof and with a wrong password: one failed proof counted per call. */
    const expectProofAsked = async (path: string, extra: object = {}) => {
      const bare = await call(path, extra);
      expect(bare.status, path).toBe(400);
      expect(errorAnswer.parse(bare.json).error, path).toBe('Please enter your current password.');
      const wrong = await call(path, { ...extra, currentPassword: 'Not-the-password1' });
      expect(wrong.status, path).toBe(400);
      expect(errorAnswer.parse(wrong.json).error, path).toBe('That password is not correct.');
    };

    // Adding a passkey: the options, whose challenge alone lets a passkey be registered.
    await expectProofAsked('passkeys/options');
    expect(await em().count(PasskeyChallenge, { user: { email } })).toBe(0);
    const { authenticator, answer, token: goesOn } = await registerPasskey(client, token, 'Laptop');
    token = goesOn;
    const [laptop] = secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json).passkeys;

    // Turning on the app: with a backup code (the account has a second step) instead of the password.
    await expectProofAsked('totp/start');
    const started = await call('totp/start', { code: answer.backupCodes[0] });
    expect(started.status, started.text).toBe(200);
    const { secret } = startTotpAnswer.parse(started.json);
    expect((await call('totp/confirm', { code: await codeAt(secret) })).status).toBe(200);

    await expectProofAsked('backup-codes');
    const renewed = await call('backup-codes', { code: await codeAt(secret, 1) });
    expect(renewed.status, renewed.text).toBe(200);
    const backupCodes = backupCodesAnswer.parse(renewed.json).backupCodes;

    // Removing the app leaves the passkey (and the backup codes) signing in.
    await expectProofAsked('totp/remove');
    const removedApp = await call('totp/remove', withPassword);
    expect(removedApp.status, removedApp.text).toBe(200);
    expect(messageAnswer.parse(removedApp.json).message).toBe('The authenticator app is removed.');
    expect((await mailsTo(email)).at(-1)?.text).toContain('Your passkeys and backup codes still work.');
    expect((await passwordStep(client, email, freshAddress())).methods).toEqual(['passkey', 'backup-code']);
    expect((await signInWithPasskey(client, email, authenticator)).status).toBe(200);

    await expectProofAsked('passkeys/remove', { passkeyId: laptop?.id });
    const removedKey = await call('passkeys/remove', { passkeyId: laptop?.id, code: backupCodes[0] });
    expect(removedKey.status, removedKey.text).toBe(200);
    const off = secondStepRemovedAnswer.parse(removedKey.json);
    expect(off.message).toBe('The passkey "Laptop" is removed, and two-step sign-in is off.');
    token = off.token ?? '';

    // Five wrong passwords so far, one per change; five more reach the limit, and then even the
    // right password is refused: a stolen session cannot guess the password through these calls.
    for (let i = 5; i < proofFailureLimit.limit; i++) {
      expect((await call('totp/start', { currentPassword: `Wrong-${i}` })).status).toBe(400);
    }
    const locked = await call('totp/start', withPassword);
    expect(locked.status).toBe(429);
    expect(errorAnswer.parse(locked.json).error).toMatch(/^Too many failed sign-in attempts\./);
  });

  it("lets an administrator remove a user's passkeys with the rest of the second step", async () => {
    const email = await newUser(server);
    const { authenticator } = await registerPasskey(client, await signInToken(client, email), 'Key');
    const userId = (await em().findOneOrFail(User, { email })).id;
    const admin = await signInToken(client, 'admin@example.com');
    expect((await client.call(`/api/admin/second-step?userId=${userId}`, { token: admin })).json).toEqual({ totp: false, passkeys: 1, backupCodesLeft: 10 });

    expect((await client.call('/api/admin/remove-second-step', { body: { userId }, token: admin })).status).toBe(200);
    expect(await em().count(Passkey, { credentialId: authenticator.credentialId })).toBe(0);
    expect(await em().count(AuditEvent, { action: 'remove-second-step', details: { subject: { id: userId } } })).toBe(1);
    await signInToken(client, email);
  });

  it('finishes on a second instance a sign-in whose challenge the first handed out', async () => {
    const other = await startTestServer({ besides: server, env: { TRUST_PROXY: 'true', PUBLIC_URL: publicUrl } });
    try {
      const email = await newUser(server);
      const { authenticator } = await registerPasskey(client, await signInToken(client, email), 'Key');
      const from = freshAddress();
      const { mfaToken } = await passwordStep(client, email, from);
      const options = await signInOptions(client, mfaToken, from);
      const res = await verifyWith(recordingClient(other), mfaToken, authenticator.authenticate(options), from);
      expect(res.status, res.text).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('a passkey is the second step REQUIRE_SECOND_STEP asks for', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true', PUBLIC_URL: publicUrl, REQUIRE_SECOND_STEP: 'administrator' } });
    client = recordingClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('opens the administration calls once a passkey is registered, and keeps the last second step, whichever it is', async () => {
    const email = await newUser(server, 'administrator');
    const passwordOnly = await signInToken(client, email);
    expect((await client.call('/api/admin/users', { token: passwordOnly })).status).toBe(403);
    const { authenticator, answer, token } = await registerPasskey(client, passwordOnly, 'Office key');
    expect((await client.call('/api/admin/users', { token: passwordOnly })).status).toBe(401);
    expect((await client.call('/api/admin/users', { token })).status).toBe(200);

    const [only] = secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json).passkeys;
    const kept = await client.call('/api/investor/second-step/passkeys/remove', { body: { passkeyId: only?.id, ...withPassword }, token });
    expect(kept.status).toBe(409);
    expect(errorAnswer.parse(kept.json).error).toBe(keepOneSecondStep.passkey);
    // Refused before the proof is checked: a backup code given as proof is not spent on it.
    const byCode = await client.call('/api/investor/second-step/passkeys/remove', { body: { passkeyId: only?.id, code: answer.backupCodes[0] }, token });
    expect(byCode.status).toBe(409);
    expect(await server.services.orm.em.fork().count(BackupCode, { user: { email }, usedAt: null })).toBe(10);

    // With an authenticator app beside it, either may go, but not both.
    const started = await client.call('/api/investor/second-step/totp/start', { body: withPassword, token });
    const { secret } = startTotpAnswer.parse(started.json);
    expect((await client.call('/api/investor/second-step/totp/confirm', { body: { code: await codeAt(secret) }, token })).status).toBe(200);
    const removedKey = await client.call('/api/investor/second-step/passkeys/remove', { body: { passkeyId: only?.id, ...withPassword }, token });
    expect(removedKey.status, removedKey.text).toBe(200);
    const keptApp = await client.call('/api/investor/second-step/totp/remove', { body: withPassword, token });
    expect(keptApp.status).toBe(409);
    expect(errorAnswer.parse(keptApp.json).error).toBe('Your role must sign in with two steps: add a passkey before removing the authenticator app.');
    // Adding a passkey back (options asked with a code of the app), the app may go.
    const again = await client.call('/api/investor/second-step/passkeys/options', { body: { code: await codeAt(secret, 1) }, token });
    expect(again.status, again.text).toBe(200);
    const second = testAuthenticator(publicUrl);
    const options = passkeyCreationOptionsAnswer.parse(again.json).options;
    expect((await client.call('/api/investor/second-step/passkeys', { body: { name: 'Spare key', response: second.register(options) }, token })).status).toBe(200);
    expect((await client.call('/api/investor/second-step/totp/remove', { body: withPassword, token })).status).toBe(200);

    // Two removals at once (two tabs, or a thief racing the owner) cannot both pass: one method stays.
    const raced = await client.call('/api/investor/second-step/passkeys/options', { body: withPassword, token });
    const third = testAuthenticator(publicUrl);
    const thirdOptions = passkeyCreationOptionsAnswer.parse(raced.json).options;
    expect((await client.call('/api/investor/second-step/passkeys', { body: { name: 'Third', response: third.register(thirdOptions) }, token })).status).toBe(200);
    const keys = secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json).passkeys;
    expect(keys).toHaveLength(2);
    // Both passkeys' rows are held until both removals wait on a lock, so that their checks
    // would overlap if nothing made them take turns.
    const results = await server.services.orm.em.fork().transactional(async (tx) => {
      await tx.find(Passkey, { user: { email } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const removals = keys.map((key) =>
        client.call('/api/investor/second-step/passkeys/remove', { body: { passkeyId: key.id, ...withPassword }, token }),
      );
      const waiting = async () => {
        const [row] = await server.services.orm.em
          .fork()
          .getConnection()
          .execute<{ count: string }[]>("select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
        return Number(row?.count);
      };
      await expect.poll(waiting, { timeout: 20_000 }).toBe(2);
      return removals;
    });
    expect((await Promise.all(results)).map((res) => res.status).sort()).toEqual([200, 409]);
    const left = secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json).passkeys;
    expect(left).toHaveLength(1);
    const survivor = left[0]?.name === 'Spare key' ? second : third;

    const signedIn = await signInWithPasskey(client, email, survivor);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect((await client.call('/api/admin/users', { token: loginAnswer.parse(signedIn.json).token })).status).toBe(200);
    expect((await signInWithPasskey(client, email, authenticator)).status).toBe(401);
  });
});
