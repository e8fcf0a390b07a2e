import { generate } from 'otplib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  backupCodesAnswer,
  confirmTotpAnswer,
  errorAnswer,
  keepOneSecondStep,
  loginAnswer,
  secondStepRemovedAnswer,
  secondStepRequiredAnswer,
  secondStepStatusAnswer,
  startTotpAnswer,
} from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../../test/harness';
import { awayFromRateLimitWindowEnd } from '../../../../test/rate-limit-window';
import { AuditEvent } from '../../audit/audit-event.entity';
import { DocumentVersion } from '../../document-access/document-version.entity';
import { PersonalDocument } from '../../personal-documents/personal-document.entity';
import { OutboxMessage } from '../../mail/outbox-message.entity';
import { User } from '../../users/user.entity';
import { secondStepNotUsedMessage } from '../../../http/route';
import { sessionTokens } from '../session';
import { hashPassword } from '../password-hash';
import { freshAddress, recordingClient } from '../../../../test/test-client';
import { BackupCode, SecondStep, SecondStepChallenge } from './second-step.entity';

// Tests here count up to a rate limit: none may run across the end of a window.
beforeEach(awayFromRateLimitWindowEnd);

type Client = ReturnType<typeof recordingClient>;

/** A TOTP code of a time step already used (RFC 6238 5.2): the owner typed it twice, or someone replays it. */
const codeJustUsed = 'This code was just used. Please wait for your authenticator app to show the next one.';

/** The access rule's refusal of an account that must have a second step and has none yet. */
const secondStepMissing = 'Please turn on two-step sign-in in Manage Profile first: your role must sign in with two steps.';

/** The code an authenticator app shows `offsetSteps` 30-second steps from now (its clock a little ahead). */
const codeAt = (secret: string, offsetSteps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * offsetSteps });

let userCounter = 0;
/** An investor of the test's own, so that no test's second step or failures touch another's. */
async function newInvestor(server: TestServer): Promise<string> {
  userCounter += 1;
  const email = `two-step-${userCounter}@example.com`;
  const em = server.services.orm.em.fork();
  em.create(User, { email, passwordHash: await hashPassword(demoPassword), firstName: 'Test', lastName: `Investor ${userCounter}` });
  await em.flush();
  return email;
}

async function signInToken(client: Client, email: string, from = freshAddress()): Promise<string> {
  const res = await client.call('/api/investor/login', { body: { email, password: demoPassword }, from });
  expect(res.status, res.text).toBe(200);
  return loginAnswer.parse(res.json).token;
}

/** The owner proof each change of the second step asks for (issue 33): here the current password. */
const withPassword = { currentPassword: demoPassword };

/** Turns TOTP on for a signed-in user through the API; answers the secret and the backup codes. */
async function enrol(client: Client, token: string): Promise<{ secret: string; backupCodes: string[]; token: string }> {
  const started = await client.call('/api/investor/second-step/totp/start', { body: withPassword, token });
  expect(started.status, started.text).toBe(200);
  const { secret } = startTotpAnswer.parse(started.json);
  const confirmed = await client.call('/api/investor/second-step/totp/confirm', { body: { code: await codeAt(secret) }, token });
  expect(confirmed.status, confirmed.text).toBe(200);
  // Turning it on ended every session; this one goes on in a fresh token.
  const answer = confirmTotpAnswer.parse(confirmed.json);
  return { secret, backupCodes: answer.backupCodes, token: answer.token ?? token };
}

async function passwordStep(client: Client, email: string, from: string) {
  const res = await client.call('/api/investor/login', { body: { email, password: demoPassword }, from });
  expect(res.status, res.text).toBe(200);
  return secondStepRequiredAnswer.parse(res.json);
}

const verify = (client: Client, mfaToken: string, code: string, from: string) =>
  client.call('/api/investor/login/verify', { body: { mfaToken, code }, from });

describe('two-step sign-in', () => {
  let server: TestServer;
  let client: Client;
  const em = () => server.services.orm.em.fork();
  const mailsTo = (recipient: string) => em().find(OutboxMessage, { recipient }, { orderBy: { id: 'asc' } });

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true' } });
    client = recordingClient(server);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('enrols an authenticator app: secret and QR code once, stored encrypted, ten backup codes, a notice by e-mail', async () => {
    const email = await newInvestor(server);
    const token = await signInToken(client, email);
    const before = secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json);
    expect(before).toEqual({ totp: false, passkeys: [], backupCodesLeft: 0, required: false });

    const started = startTotpAnswer.parse((await client.call('/api/investor/second-step/totp/start', { body: withPassword, token })).json);
    expect(started.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(started.otpauthUrl).toContain(`secret=${started.secret}`);
    const wrong = await client.call('/api/investor/second-step/totp/confirm', { body: { code: '000000' }, token });
    expect(wrong.status).toBe(400);
    expect(errorAnswer.parse(wrong.json).error).toBe('That code is not correct. Please try again.');

    const confirmed = await client.call('/api/investor/second-step/totp/confirm', { body: { code: await codeAt(started.secret) }, token });
    expect(confirmed.status, confirmed.text).toBe(200);
    const { backupCodes, token: goesOn = '' } = confirmTotpAnswer.parse(confirmed.json);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);

    const row = await em().findOneOrFail(SecondStep, { user: { email } });
    expect(row.totpSecret).toBeTruthy();
    expect(row.totpSecret).not.toContain(started.secret);
    expect(row.totpPendingSecret).toBeNull();

    // Turning it on ended the session it was set up in; it goes on in the answer's token.
    expect((await client.call('/api/investor/second-step', { token })).status).toBe(401);
    const status = await client.call('/api/investor/second-step', { token: goesOn });
    expect(secondStepStatusAnswer.parse(status.json)).toEqual({ totp: true, passkeys: [], backupCodesLeft: 10, required: false });
    expect(status.text).not.toContain(started.secret);
    // A second set-up would show a new secret: refused while one is on.
    const again = await client.call('/api/investor/second-step/totp/start', { body: withPassword, token: goesOn });
    expect(again.status).toBe(409);
    expect(errorAnswer.parse(again.json).error).toBe('An authenticator app is set up already. Remove it first to use another one.');
    expect((await mailsTo(email)).map((m) => m.subject)).toContain('Two-step sign-in is now on for your Everest Properties investor portal account');
  });

  // Found by the authorization matrix (issue 22): two set-ups at once (a double click, two tabs)
  // both inserted the user's row, and the second answered 500.
  it('takes set-ups started at once: each answers, and the secret of one of them waits for its code', async () => {
    const email = await newInvestor(server);
    const token = await signInToken(client, email);
    const starts = await Promise.all(
      Array.from({ length: 6 }, () => client.call('/api/investor/second-step/totp/start', { body: withPassword, token })),
    );
    expect(starts.map((res) => res.status)).toEqual(starts.map(() => 200));
    const secrets = starts.map((res) => startTotpAnswer.parse(res.json).secret);
    const from = freshAddress();
    const confirmations = await Promise.all(
      secrets.map(async (secret) => (await client.call('/api/investor/second-step/totp/confirm', { body: { code: await codeAt(secret) }, token, from })).status),
    );
    expect(confirmations.filter((status) => status === 200)).toHaveLength(1);
    expect(await em().count(SecondStep, { user: { email } })).toBe(1);
  });

  it('signs in with the password, then a TOTP code; the mfaToken works once', async () => {
    const email = await newInvestor(server);
    const { secret } = await enrol(client, await signInToken(client, email));
    const from = freshAddress();

    const challenge = await passwordStep(client, email, from);
    expect(challenge.methods).toEqual(['totp', 'backup-code']);
    expect(JSON.stringify(challenge)).not.toMatch(/"token"|"user"/);

    // The set-up used this step's code: the app's next one signs in.
    const signedIn = await verify(client, challenge.mfaToken, await codeAt(secret, 1), from);
    expect(signedIn.status, signedIn.text).toBe(200);
    const { token, user } = loginAnswer.parse(signedIn.json);
    expect(user.email).toBe(email);
    expect((await client.call('/api/investor/profile', { token })).status).toBe(200);

    const again = await verify(client, challenge.mfaToken, await codeAt(secret, 2), from);
    expect(again.status).toBe(401);
    expect(errorAnswer.parse(again.json).error).toBe('Your sign-in has expired. Please sign in again.');
  });

  it('refuses a TOTP code that already signed in once, and the code of the set-up, saying it was just used', async () => {
    const email = await newInvestor(server);
    const { secret, token } = await enrol(client, await signInToken(client, email));
    const from = freshAddress();

    const setUpCode = await codeAt(secret);
    const first = await passwordStep(client, email, from);
    const setUpAgain = await verify(client, first.mfaToken, setUpCode, from);
    expect(setUpAgain.status).toBe(401);
    expect(errorAnswer.parse(setUpAgain.json).error).toBe(codeJustUsed);

    const code = await codeAt(secret, 1);
    expect((await verify(client, first.mfaToken, code, from)).status).toBe(200);
    const second = await passwordStep(client, email, from);
    const reused = await verify(client, second.mfaToken, code, from);
    expect(reused.status).toBe(401);
    expect(errorAnswer.parse(reused.json).error).toBe(codeJustUsed);
    // The same in Manage Profile, where a current code proves the session's owner.
    const proof = await client.call('/api/investor/second-step/backup-codes', { body: { code }, token });
    expect(proof.status).toBe(400);
    expect(errorAnswer.parse(proof.json).error).toBe(codeJustUsed);
    // A wrong code is still just wrong.
    const wrong = await verify(client, second.mfaToken, code === '000000' ? '111111' : '000000', from);
    expect(errorAnswer.parse(wrong.json).error).toBe('That code is not correct. Please try again.');
  });

  it('takes each backup code once, however it is typed, and e-mails a notice with the count left', async () => {
    const email = await newInvestor(server);
    const { backupCodes } = await enrol(client, await signInToken(client, email));
    const from = freshAddress();
    const code = backupCodes[3] ?? '';

    const first = await passwordStep(client, email, from);
    const used = await verify(client, first.mfaToken, ` ${code.toUpperCase()} `, from);
    expect(used.status, used.text).toBe(200);
    const usedMail = (await mailsTo(email)).at(-1);
    expect(usedMail?.subject).toBe('A backup code was used to sign in to your Everest Properties investor portal account');
    expect(usedMail?.text).toContain('9 backup codes are left');

    const second = await passwordStep(client, email, from);
    expect((await verify(client, second.mfaToken, code, from)).status).toBe(401);
    expect((await verify(client, second.mfaToken, backupCodes[4] ?? '', from)).status).toBe(200);
  });

  // Wrong codes are bounded per sign-in, per address and by the account's ceiling, past which the
  // password step asks for the e-mailed code: guess-ceiling.test.ts. The owner's right code is never refused with 429.

  it('refuses an expired mfaToken, even with a right code', async () => {
    const email = await newInvestor(server);
    const { secret } = await enrol(client, await signInToken(client, email));
    const from = freshAddress();
    const challenge = await passwordStep(client, email, from);

    await em().nativeUpdate(SecondStepChallenge, { user: { email } }, { expiresAt: new Date(Date.now() - 1000) });
    const late = await verify(client, challenge.mfaToken, await codeAt(secret, 1), from);
    expect(late.status).toBe(401);
    expect(errorAnswer.parse(late.json).error).toBe('Your sign-in has expired. Please sign in again.');
  });

  it('makes new backup codes for a current code or the password: the old ones stop working, and the owner is told', async () => {
    const email = await newInvestor(server);
    const { backupCodes: old, token } = await enrol(client, await signInToken(client, email));
    const res = await client.call('/api/investor/second-step/backup-codes', { body: { code: old[0] }, token });
    expect(res.status, res.text).toBe(200);
    const fresh = backupCodesAnswer.parse(res.json).backupCodes;
    expect(fresh).toHaveLength(10);
    expect((await mailsTo(email)).at(-1)?.subject).toBe('New backup codes were made for your Everest Properties investor portal account');

    const from = freshAddress();
    const challenge = await passwordStep(client, email, from);
    expect((await verify(client, challenge.mfaToken, old[1] ?? '', from)).status).toBe(401);
    expect((await verify(client, challenge.mfaToken, fresh[0] ?? '', from)).status).toBe(200);

    const byPassword = await client.call('/api/investor/second-step/backup-codes', { body: withPassword, token });
    expect(byPassword.status, byPassword.text).toBe(200);
    expect(backupCodesAnswer.parse(byPassword.json).backupCodes).not.toContain(fresh[1]);
  });

  it('asks for an owner proof before a set-up starts or new backup codes are made: none, or a wrong password, is refused', async () => {
    const email = await newInvestor(server);
    let token = await signInToken(client, email);
    for (const body of [{}, { currentPassword: '' }]) {
      const bare = await client.call('/api/investor/second-step/totp/start', { body, token });
      expect(bare.status).toBe(400);
      expect(errorAnswer.parse(bare.json).error).toBe('Please enter your current password.');
    }
    const wrong = await client.call('/api/investor/second-step/totp/start', { body: { currentPassword: `${demoPassword}x` }, token });
    expect(wrong.status).toBe(400);
    expect(errorAnswer.parse(wrong.json).error).toBe('That password is not correct.');
    // No secret was handed out, so no code can turn it on.
    expect((await em().findOne(SecondStep, { user: { email } }))?.totpPendingSecret ?? null).toBeNull();

    token = (await enrol(client, token)).token;
    const bare = await client.call('/api/investor/second-step/backup-codes', { body: {}, token });
    expect(bare.status).toBe(400);
    expect(errorAnswer.parse(bare.json).error).toBe('Please enter your current password.');
    const wrongAgain = await client.call('/api/investor/second-step/backup-codes', { body: { currentPassword: 'not the password' }, token });
    expect(wrongAgain.status).toBe(400);
    expect(errorAnswer.parse(wrongAgain.json).error).toBe('That password is not correct.');
    expect(await em().count(BackupCode, { user: { email }, usedAt: null })).toBe(10);
  });

  it('removes the authenticator app for an owner proof: the last second step of an investor takes the backup codes with it, and a notice goes out', async () => {
    const email = await newInvestor(server);
    const { secret, token } = await enrol(client, await signInToken(client, email));

    const bare = await client.call('/api/investor/second-step/totp/remove', { body: {}, token });
    expect(bare.status).toBe(400);
    expect(errorAnswer.parse(bare.json).error).toBe('Please enter your current password.');
    const wrong = await client.call('/api/investor/second-step/totp/remove', { body: { currentPassword: 'guess' }, token });
    expect(wrong.status).toBe(400);
    expect(errorAnswer.parse(wrong.json).error).toBe('That password is not correct.');
    expect(secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json).totp).toBe(true);

    const removed = await client.call('/api/investor/second-step/totp/remove', { body: { code: await codeAt(secret, 1) }, token });
    expect(removed.status, removed.text).toBe(200);
    const answer = secondStepRemovedAnswer.parse(removed.json);
    expect(answer.message).toBe('The authenticator app is removed, and two-step sign-in is off.');
    // Turning it off ended every session; this one goes on in the answer's token.
    expect((await client.call('/api/investor/second-step', { token })).status).toBe(401);
    const goesOn = answer.token ?? '';
    expect(secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token: goesOn })).json)).toEqual({
      totp: false,
      passkeys: [],
      backupCodesLeft: 0,
      required: false,
    });
    expect(await em().count(BackupCode, { user: { email } })).toBe(0);
    const mail = (await mailsTo(email)).at(-1);
    expect(mail?.subject).toBe('The authenticator app was removed from your Everest Properties investor portal account');
    expect(mail?.text).toContain('It was your last second step');
    // The password alone signs in again; nothing is left to remove.
    await signInToken(client, email);
    const none = await client.call('/api/investor/second-step/totp/remove', { body: withPassword, token: goesOn });
    expect(none.status).toBe(409);
    expect(errorAnswer.parse(none.json).error).toBe('No authenticator app is set up on your account.');
  });

  it('refuses hostile proofs with 400 and a sentence, and a code given as proof works once', async () => {
    const email = await newInvestor(server);
    const { secret, token } = await enrol(client, await signInToken(client, email));
    const hostile: unknown[] = [
      { currentPassword: `${demoPassword}\u0000` },
      { currentPassword: 'x'.repeat(100_000) },
      { currentPassword: 12345678 },
      { code: ['123456'] },
      { code: 'x'.repeat(41) },
    ];
    for (const body of hostile) {
      const res = await client.call('/api/investor/second-step/totp/remove', { body, token });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(errorAnswer.parse(res.json).error).toMatch(/^[A-Z].*\.$/);
    }
    const code = await codeAt(secret, 1);
    expect((await client.call('/api/investor/second-step/backup-codes', { body: { code }, token })).status).toBe(200);
    const replayed = await client.call('/api/investor/second-step/totp/remove', { body: { code }, token });
    expect(replayed.status).toBe(400);
    expect(errorAnswer.parse(replayed.json).error).toBe(codeJustUsed);
    expect(secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json).totp).toBe(true);
  });

  it('has no route that turns every second step off at once', async () => {
    const token = await signInToken(client, await newInvestor(server));
    expect((await client.call('/api/investor/second-step/disable', { body: withPassword, token })).status).toBe(404);
  });

  it("lets an administrator remove a user's second step, audited and e-mailed to the user", async () => {
    const email = await newInvestor(server);
    await enrol(client, await signInToken(client, email));
    const userId = (await em().findOneOrFail(User, { email })).id;
    const admin = await signInToken(client, 'admin@example.com');

    const seen = await client.call(`/api/admin/second-step?userId=${userId}`, { token: admin });
    expect(seen.json).toEqual({ totp: true, passkeys: 0, backupCodesLeft: 10 });
    const investor = await signInToken(client, 'investor2@example.com');
    expect((await client.call('/api/admin/remove-second-step', { body: { userId }, token: investor })).status).toBe(403);

    const removed = await client.call('/api/admin/remove-second-step', { body: { userId }, token: admin });
    expect(removed.status, removed.text).toBe(200);
    await signInToken(client, email);
    const audit = await em().findOneOrFail(AuditEvent, { action: 'remove-second-step' });
    expect(audit.details).toMatchObject({ actorEmail: 'admin@example.com', subject: { type: 'user', id: userId, label: email } });
    expect((await mailsTo(email)).at(-1)?.subject).toBe(
      'An administrator removed two-step sign-in from your Everest Properties investor portal account',
    );
    expect((await client.call('/api/admin/remove-second-step', { body: { userId }, token: admin })).status).toBe(409);
  });
});

describe('two-step sign-in required for administrators (REQUIRE_SECOND_STEP=administrator)', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { TRUST_PROXY: 'true', REQUIRE_SECOND_STEP: 'administrator' } });
    client = recordingClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  /** An administrator of the test's own whose session was opened (by setting it up) with a second step. */
  async function twoStepAdmin(): Promise<string> {
    const em = server.services.orm.em.fork();
    const email = await newInvestor(server);
    (await em.findOneOrFail(User, { email })).role = 'administrator';
    await em.flush();
    return (await enrol(client, await signInToken(client, email))).token;
  }

  it('refuses admin calls until the administrator has set it up, then asks for it at sign-in', async () => {
    const token = await signInToken(client, 'admin@example.com');
    const status = secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json);
    expect(status).toEqual({ totp: false, passkeys: [], backupCodesLeft: 0, required: true });
    const refused = await client.call('/api/admin/users', { token });
    expect(refused.status).toBe(403);
    expect(errorAnswer.parse(refused.json).error).toBe(secondStepMissing);
    // The portal's own calls still work, so the set-up can be reached.
    expect((await client.call('/api/investor/profile', { token })).status).toBe(200);

    const { secret, token: goesOn } = await enrol(client, token);
    expect((await client.call('/api/admin/users', { token: goesOn })).status).toBe(200);
    // Required for the role: its only second step cannot be removed by its owner, even with a proof.
    const kept = await client.call('/api/investor/second-step/totp/remove', { body: withPassword, token: goesOn });
    expect(kept.status).toBe(409);
    expect(errorAnswer.parse(kept.json).error).toBe(keepOneSecondStep.totp);
    expect(errorAnswer.parse(kept.json).error).toBe('Your role must sign in with two steps: add a passkey before removing the authenticator app.');

    const from = freshAddress();
    const challenge = await passwordStep(client, 'admin@example.com', from);
    expect((await verify(client, challenge.mfaToken, await codeAt(secret, 1), from)).status).toBe(200);
  });

  it('refuses an administrator without it every call but the set-up, the profile and sign-out: no K-1 by the password alone', async () => {
    const em = server.services.orm.em.fork();
    const email = await newInvestor(server);
    (await em.findOneOrFail(User, { email })).role = 'administrator';
    await em.flush();
    const token = await signInToken(client, email);
    // Someone else's personal document and its first version: sequential ids a thief would walk.
    const k1 = await em.findOneOrFail(PersonalDocument, { user: { email: 'investor@example.com' } }, { orderBy: { id: 'asc' } });
    const version = await em.findOneOrFail(DocumentVersion, { documentType: 'personal', documentId: k1.id });
    const refusedCalls: [string, { body?: unknown }][] = [
      [`/api/investor/download/${k1.id}?type=user`, {}],
      [`/api/investor/download/${k1.id}?type=user&token=${token}`, {}],
      [`/api/investor/download-version/${version.id}`, {}],
      ['/api/investor/document-link', { body: { type: 'user', id: k1.id } }],
      ['/api/investor/documents', {}],
      ['/api/investor/categories', {}],
      ['/api/investor/update-profile', { body: { firstName: 'Mallory' } }],
      ['/api/investor/change-password', { body: { currentPassword: demoPassword, newPassword: `${demoPassword}!x` } }],
    ];
    for (const [path, { body }] of refusedCalls) {
      // The address's own session token as ?token= must not slip past either.
      const res = path.includes('token=') ? await client.call(path) : await client.call(path, { body, token });
      expect(res.status, path).toBe(403);
      expect(errorAnswer.parse(res.json).error, path).toBe(secondStepMissing);
    }
    expect((await client.call('/api/investor/profile', { token })).status).toBe(200);
    expect((await client.call('/api/investor/second-step', { token })).status).toBe(200);
    // The set-up asks for the password just typed at sign-in, as every change of the second step does.
    expect((await client.call('/api/investor/second-step/totp/start', { body: {}, token })).status).toBe(400);
    expect((await client.call('/api/investor/second-step/totp/start', { body: withPassword, token })).status).toBe(200);
    expect((await client.call('/api/investor/second-step/passkeys/options', { body: withPassword, token })).status).toBe(200);
    // Public calls answer as they would anonymously: the token adds nothing there.
    expect((await client.call('/api/properties', { token })).status).toBe(200);
    expect((await client.call('/api/investor/logout', { body: {}, token })).status).toBe(200);
  });

  it('never lets a session opened with the password alone gain admin rights when the account turns a second step on elsewhere', async () => {
    const em = server.services.orm.em.fork();
    const email = await newInvestor(server);
    (await em.findOneOrFail(User, { email })).role = 'administrator';
    await em.flush();
    // Someone who knows only the password signs in: admin calls are refused.
    const thief = await signInToken(client, email);
    expect((await client.call('/api/admin/users', { token: thief })).status).toBe(403);
    // The owner sets up an authenticator app in a session of their own.
    const owner = await signInToken(client, email);
    const { secret, token: ownerGoesOn } = await enrol(client, owner);
    // Every other session ended with it, as a new password ends them; the owner's goes on.
    expect((await client.call('/api/admin/users', { token: thief })).status).toBe(401);
    expect((await client.call('/api/admin/users', { token: owner })).status).toBe(401);
    expect((await client.call('/api/admin/users', { token: ownerGoesOn })).status).toBe(200);

    // A password-only session of the current token version (as a token issued before the claim,
    // or any way one might outlive the change) still never counts as two-step.
    const row = await server.services.orm.em.fork().findOneOrFail(User, { email });
    const passwordOnly = await sessionTokens(server.services.config).issue({ userId: row.id, tokenVersion: row.tokenVersion, secondStep: false });
    const refused = await client.call('/api/admin/users', { token: passwordOnly });
    expect(refused.status).toBe(403);
    expect(errorAnswer.parse(refused.json).error).toBe(secondStepNotUsedMessage);
    const k1 = await em.findOneOrFail(PersonalDocument, { user: { email: 'investor@example.com' } }, { orderBy: { id: 'asc' } });
    expect((await client.call(`/api/investor/download/${k1.id}?type=user`, { token: passwordOnly })).status).toBe(403);
    expect((await client.call('/api/admin/users', { token: passwordOnly.slice(0, -1) })).status).toBe(401);

    // Signing in with both steps opens a full session.
    const from = freshAddress();
    const challenge = await passwordStep(client, email, from);
    const verified = await verify(client, challenge.mfaToken, await codeAt(secret, 1), from);
    expect((await client.call('/api/admin/users', { token: loginAnswer.parse(verified.json).token })).status).toBe(200);
  });

  it('ends the other sessions when the last second step is removed, by its owner or by an administrator', async () => {
    const email = await newInvestor(server);
    const first = await signInToken(client, email);
    const { secret, token: enrolled } = await enrol(client, first);
    const from = freshAddress();
    const other = loginAnswer.parse((await verify(client, (await passwordStep(client, email, from)).mfaToken, await codeAt(secret, 1), from)).json).token;
    expect((await client.call('/api/investor/profile', { token: other })).status).toBe(200);
    const removed = await client.call('/api/investor/second-step/totp/remove', { body: withPassword, token: enrolled });
    expect(removed.status, removed.text).toBe(200);
    const { token: goesOn } = secondStepRemovedAnswer.parse(removed.json);
    expect((await client.call('/api/investor/profile', { token: other })).status).toBe(401);
    expect((await client.call('/api/investor/profile', { token: enrolled })).status).toBe(401);
    expect((await client.call('/api/investor/profile', { token: goesOn })).status).toBe(200);

    // Turned on again, then removed by an administrator: the user's sessions end too.
    const again = await enrol(client, goesOn ?? '');
    const admin = await twoStepAdmin();
    expect((await client.call('/api/investor/profile', { token: again.token })).status).toBe(200);
    const userId = (await server.services.orm.em.fork().findOneOrFail(User, { email })).id;
    expect((await client.call('/api/admin/remove-second-step', { body: { userId }, token: admin })).status).toBe(200);
    expect((await client.call('/api/investor/profile', { token: again.token })).status).toBe(401);
  });

  it('leaves investors to choose: they sign in with the password alone', async () => {
    const token = await signInToken(client, 'investor@example.com');
    expect(secondStepStatusAnswer.parse((await client.call('/api/investor/second-step', { token })).json).required).toBe(false);
  });
});
