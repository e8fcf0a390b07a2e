import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailChangeLinkAnswer, loginAnswer, profileAnswer, updateProfileAnswer } from '@everest/core/contract';
import { portalMessages, portalSuccess } from '@everest/core/domain';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';
import { hashPassword } from '../auth/password-hash';
import { PasswordResetToken } from '../auth/password-reset-token.entity';
import { freshAddress, recordingClient } from '../../../test/test-client';
import { queuedMails } from '../../../test/queued-mails';
import { EmailChange } from './email-change.entity';
import { User } from './user.entity';

const publicUrl = 'https://portal.everest.example';
const confirmPattern = /\/investor-services\?confirmEmail=([A-Za-z0-9_-]+)/;
const undoPattern = /\/investor-services\?undoEmail=([A-Za-z0-9_-]+)/;
const resetPattern = /\/investor-services\?resetToken=([A-Za-z0-9_-]+)/;

/**
 * Issue 33 gap 4: a stolen session must not move the account to the thief's address. A new
 * address needs the owner's proof, takes effect only from a link sent to it, and the old address
 * is told at once, with a link that puts it back and ends every session.
 */
describe('e-mail change by confirmation', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let log = '';
  let counter = 0;
  const em = () => server.services.orm.em.fork();
  const update = (token: string, body: object) => client.call('/api/investor/update-profile', { token, body, from: freshAddress() });
  const profile = (token: string) => client.call('/api/investor/profile', { token });
  const confirm = (token: string, from = freshAddress()) => client.call('/api/investor/confirm-email-change', { body: { token }, from });
  const undo = (token: string, from = freshAddress()) => client.call('/api/investor/undo-email-change', { body: { token }, from });
  const signInAs = (email: string, password = demoPassword) =>
    client.call('/api/investor/login', { body: { email, password }, from: freshAddress() });
  const mailsTo = (recipient: string) => queuedMails(em(), { recipient });
  const tokenIn = async (recipient: string, pattern: RegExp) => {
    const texts = (await mailsTo(recipient)).map((mail) => mail.text).reverse();
    const token = texts.map((text) => pattern.exec(text)?.[1]).find(Boolean);
    if (!token) throw new Error(`no link ${String(pattern)} e-mailed to ${recipient}`);
    return token;
  };

  /** An investor of the test's own, signed in: no test's change touches another's account. */
  async function newInvestor(): Promise<{ email: string; token: string }> {
    counter += 1;
    const email = `mover-${counter}@example.com`;
    const fork = em();
    fork.create(User, { email, passwordHash: await hashPassword(demoPassword), firstName: 'Casey', lastName: `Mover ${counter}` });
    await fork.flush();
    return { email, token: await client.signIn(email, demoPassword, freshAddress()) };
  }

  beforeAll(async () => {
    server = await startTestServer({
      seed: true,
      env: { TRUST_PROXY: 'true', PUBLIC_URL: publicUrl, LOG_LEVEL: 'debug' },
      logTo: { write: (line: string) => void (log += line) },
    });
    client = recordingClient(server);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('refuses a new address without a proof or with a wrong password, changing nothing', async () => {
    const { email, token } = await newInvestor();
    const missing = await update(token, { email: 'elsewhere@example.com', city: 'Reno' });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: portalMessages.enterCurrentPassword });
    const wrong = await update(token, { email: 'elsewhere@example.com', city: 'Reno', currentPassword: 'Not@MyPassword1' });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: 'That password is not correct.' });

    const stored = await em().findOneOrFail(User, { email });
    expect(stored.city).toBe('');
    expect(await em().count(EmailChange, { user: stored.id })).toBe(0);
    expect(await mailsTo('elsewhere@example.com')).toHaveLength(0);
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('keeps the address until the new one confirms by its link, then takes it; the old address hears of both', async () => {
    const { email, token } = await newInvestor();
    const newEmail = `new-${email}`;
    const res = await update(token, { email: newEmail.toUpperCase(), city: 'Reno', currentPassword: demoPassword });
    expect(res.status, res.text).toBe(200);
    const answer = updateProfileAnswer.parse(res.json);
    expect(answer.message).toBe(portalSuccess.emailChangeRequested(newEmail).description);
    expect(answer.user).toMatchObject({ email, city: 'Reno' });
    expect(answer.pendingEmail?.email).toBe(newEmail);
    const expiresIn = Date.parse(answer.pendingEmail?.expiresAt ?? '') - Date.now();
    expect(expiresIn).toBeGreaterThan(23 * 3_600_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3_600_000);

    // Until the link is opened, nothing about signing in changes.
    expect(profileAnswer.parse((await profile(token)).json)).toMatchObject({ user: { email }, pendingEmail: { email: newEmail } });
    expect((await signInAs(newEmail)).status).toBe(401);
    expect((await signInAs(email)).status).toBe(200);
    const [notice] = await mailsTo(email);
    expect(notice?.text).toContain(newEmail);
    expect(notice?.text).toMatch(undoPattern);
    // The new address learns neither whose account it is nor its current address.
    const [request] = await mailsTo(newEmail);
    expect(request?.text).toMatch(confirmPattern);
    expect(request?.text).not.toContain(email);
    expect(request?.text).not.toContain('Casey');

    const resetBefore = await client.call('/api/investor/request-password-reset', { body: { email }, from: freshAddress() });
    expect(resetBefore.status).toBe(200);
    const confirmed = await confirm(await tokenIn(newEmail, confirmPattern));
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(emailChangeLinkAnswer.parse(confirmed.json)).toEqual({
      message: portalSuccess.emailChangeConfirmed(newEmail).description,
      email: newEmail,
    });
    // The session goes on, with the new address; sign-ins use it; links sent to the old one are void.
    expect(profileAnswer.parse((await profile(token)).json)).toMatchObject({ user: { email: newEmail }, pendingEmail: null });
    loginAnswer.parse((await signInAs(newEmail)).json);
    expect((await signInAs(email)).status).toBe(401);
    const stored = await em().findOneOrFail(User, { email: newEmail });
    expect(await em().count(PasswordResetToken, { user: stored.id, usedAt: null })).toBe(0);
    expect((await mailsTo(email)).map((mail) => mail.subject)).toContain(
      'The e-mail address of your Everest Properties investor portal account was changed',
    );
  });

  it('refuses a confirmation link used twice, expired, or replaced by a later request', async () => {
    const { email, token } = await newInvestor();
    const first = `first-${email}`;
    const second = `second-${email}`;
    expect((await update(token, { email: first, currentPassword: demoPassword })).status).toBe(200);
    const firstLink = await tokenIn(first, confirmPattern);
    expect((await update(token, { email: second, currentPassword: demoPassword })).status).toBe(200);
    expect(profileAnswer.parse((await profile(token)).json).pendingEmail?.email).toBe(second);

    const replaced = await confirm(firstLink);
    expect(replaced.status).toBe(400);
    expect(replaced.json).toEqual({ error: portalMessages.invalidEmailChangeLink.description });

    const secondLink = await tokenIn(second, confirmPattern);
    await em().nativeUpdate(EmailChange, { newEmail: second }, { confirmExpiresAt: new Date(Date.now() - 1000) });
    expect((await confirm(secondLink)).status).toBe(400);
    expect(profileAnswer.parse((await profile(token)).json)).toMatchObject({ user: { email }, pendingEmail: null });

    await em().nativeUpdate(EmailChange, { newEmail: second }, { confirmExpiresAt: new Date(Date.now() + 60_000) });
    expect((await confirm(secondLink)).status).toBe(200);
    const again = await confirm(secondLink);
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ error: portalMessages.invalidEmailChangeLink.description });
    expect((await em().findOneOrFail(User, { email: second })).id).toBeGreaterThan(0);
  });

  it('answers an address another account uses exactly as a free one, changes nothing, and tells that address', async () => {
    const free = await newInvestor();
    const taken = await newInvestor();
    const freeAnswer = updateProfileAnswer.parse((await update(free.token, { email: `free-${free.email}`, currentPassword: demoPassword })).json);
    const res = await update(taken.token, { email: 'Employee@Example.com', currentPassword: demoPassword });
    expect(res.status, res.text).toBe(200);
    const takenAnswer = updateProfileAnswer.parse(res.json);
    expect(takenAnswer.message).toBe(portalSuccess.emailChangeRequested('employee@example.com').description);
    expect(Object.keys(takenAnswer)).toEqual(Object.keys(freeAnswer));
    expect(takenAnswer.pendingEmail?.email).toBe('employee@example.com');
    expect(res.text).not.toMatch(/already|another account|taken/i);

    // The address's owner gets a note, with no link in it; the asker's address the usual notice.
    const notes = await mailsTo('employee@example.com');
    expect(notes.map((mail) => mail.subject)).toEqual(['Someone asked to use your e-mail address for an Everest Properties investor portal account']);
    expect(notes[0]?.text).not.toMatch(/confirmEmail|undoEmail|resetToken/);
    expect(await mailsTo(taken.email)).toHaveLength(1);
    expect((await em().findOneOrFail(User, { email: 'employee@example.com' })).firstName).toBe('Daniel');
    expect(profileAnswer.parse((await profile(taken.token)).json).user.email).toBe(taken.email);
  });

  it('refuses at confirmation an address another account took meanwhile', async () => {
    const { email, token } = await newInvestor();
    const wanted = `wanted-${email}`;
    expect((await update(token, { email: wanted, currentPassword: demoPassword })).status).toBe(200);
    const fork = em();
    fork.create(User, { email: wanted, passwordHash: 'x', firstName: 'Quick', lastName: 'Taker' });
    await fork.flush();
    const res = await confirm(await tokenIn(wanted, confirmPattern));
    expect(res.status).toBe(409);
    expect(profileAnswer.parse((await profile(token)).json)).toMatchObject({ user: { email }, pendingEmail: null });
  });

  it('undoes a confirmed change from the old address: the address back, every session ended, a fresh password link', async () => {
    const { email, token } = await newInvestor();
    const thief = `thief-${email}`;
    const other = await client.signIn(email, demoPassword, freshAddress());
    expect((await update(token, { email: thief, currentPassword: demoPassword })).status).toBe(200);
    expect((await confirm(await tokenIn(thief, confirmPattern))).status).toBe(200);
    // The thief asks for a reset link at the new address: undo must void it.
    expect((await client.call('/api/investor/request-password-reset', { body: { email: thief }, from: freshAddress() })).status).toBe(200);
    const thiefReset = await tokenIn(thief, resetPattern);

    const undoLink = await tokenIn(email, undoPattern);
    const res = await undo(undoLink);
    expect(res.status, res.text).toBe(200);
    expect(emailChangeLinkAnswer.parse(res.json)).toEqual({ message: portalSuccess.emailChangeUndone(email).description, email });
    expect((await profile(token)).status).toBe(401);
    expect((await profile(other)).status).toBe(401);
    expect((await signInAs(thief)).status).toBe(401);
    loginAnswer.parse((await signInAs(email)).json);
    const used = await client.call('/api/investor/reset-password', {
      body: { token: thiefReset, password: 'Thief@2026x', confirmPassword: 'Thief@2026x' },
      from: freshAddress(),
    });
    expect(used.status).toBe(400);
    // The owner's fresh link works.
    const ownReset = await tokenIn(email, resetPattern);
    const reset = await client.call('/api/investor/reset-password', {
      body: { token: ownReset, password: 'Owner@2026x', confirmPassword: 'Owner@2026x' },
      from: freshAddress(),
    });
    expect(reset.status, reset.text).toBe(200);
    // An undo link works once.
    expect((await undo(undoLink)).status).toBe(400);
  });

  it('undoes a change still waiting for its link: its link stops working and every session ends', async () => {
    const { email, token } = await newInvestor();
    const wanted = `pending-${email}`;
    expect((await update(token, { email: wanted, currentPassword: demoPassword })).status).toBe(200);
    expect((await undo(await tokenIn(email, undoPattern))).status).toBe(200);
    expect((await profile(token)).status).toBe(401);
    expect((await confirm(await tokenIn(wanted, confirmPattern))).status).toBe(400);
    expect(await em().count(User, { email: wanted })).toBe(0);
  });

  it('lets the owner cancel a change waiting for its link, without a proof', async () => {
    const { email, token } = await newInvestor();
    const wanted = `cancelled-${email}`;
    expect((await update(token, { email: wanted, currentPassword: demoPassword })).status).toBe(200);
    const res = await client.call('/api/investor/cancel-email-change', { body: {}, token });
    expect(res.status, res.text).toBe(200);
    expect(updateProfileAnswer.parse(res.json)).toMatchObject({ user: { email }, pendingEmail: null });
    expect(profileAnswer.parse((await profile(token)).json).pendingEmail).toBeNull();
    expect((await confirm(await tokenIn(wanted, confirmPattern))).status).toBe(400);
    expect((await client.call('/api/investor/cancel-email-change', { body: {} })).status).toBe(401);
  });

  it('limits unknown links per address, and changes asked for per account', async () => {
    const from = freshAddress();
    for (let i = 0; i < 30; i += 1) expect((await confirm(`made-up-${i}`, from)).status).toBe(400);
    expect((await undo('made-up', from)).status).toBe(429);

    const { email, token } = await newInvestor();
    for (let i = 0; i < 5; i += 1) expect((await update(token, { email: `many-${i}-${email}`, currentPassword: demoPassword })).status).toBe(200);
    const refused = await update(token, { email: `many-5-${email}`, currentPassword: demoPassword });
    expect(refused.status).toBe(429);
    expect(await mailsTo(`many-5-${email}`)).toHaveLength(0);
  });

  it('refuses hostile update-profile bodies with 400, changing nothing', async () => {
    const { email, token } = await newInvestor();
    const bodies = [
      { email: `${'x'.repeat(250)}@example.com`, currentPassword: demoPassword },
      { email: 'a\u0000@example.com', currentPassword: demoPassword },
      { email: 'other@example.com', currentPassword: 12 },
      { email: 'other@example.com', currentPassword: 'x'.repeat(10_000) },
      { email: 'other@example.com', code: 'c'.repeat(41) },
      { email: 'other@example.com', code: ['123456'] },
      { email: ['other@example.com'], currentPassword: demoPassword },
    ];
    for (const body of bodies) expect((await update(token, body)).status, JSON.stringify(body).slice(0, 80)).toBe(400);
    const stored = await em().findOneOrFail(User, { email });
    expect(await em().count(EmailChange, { user: stored.id })).toBe(0);
    // The cancel call takes an empty body only.
    expect((await client.call('/api/investor/cancel-email-change', { body: { userId: 1 }, token })).status).toBe(400);
  });

  it('refuses hostile link bodies with 400', async () => {
    for (const body of [{}, { token: 12 }, { token: '' }, { token: 'x'.repeat(201) }, { token: 'a\u0000b' }, { token: ['a'] }]) {
      const res = await client.call('/api/investor/confirm-email-change', { body, from: freshAddress() });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("voids every link of the account when an administrator changes its address: reset, confirmation, undo, a share's invitation", async () => {
    const { email, token } = await newInvestor();
    const admin = await client.signIn('admin@example.com', demoPassword, freshAddress());
    const adminCall = (path: string, body: object) => client.call(`/api/admin/${path}`, { token: admin, body, from: freshAddress() });
    const userIdOf = async (address: string) => (await em().findOneOrFail(User, { email: address })).id;

    // The owner's links: a reset, and a change to a new address still waiting for its link.
    expect((await client.call('/api/investor/request-password-reset', { body: { email }, from: freshAddress() })).status).toBe(200);
    const resetToken = await tokenIn(email, resetPattern);
    const wanted = `wanted-${email}`;
    expect((await update(token, { email: wanted, currentPassword: demoPassword })).status).toBe(200);
    const confirmToken = await tokenIn(wanted, confirmPattern);
    const undoToken = await tokenIn(email, undoPattern);
    // A share's invitation: a new account whose e-mail carries its link to choose a password.
    const invited = `invited-${email}`;
    const shared = await client.call('/api/investor/shares/create', {
      token,
      from: freshAddress(),
      body: { email: invited, personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [], currentPassword: demoPassword },
    });
    expect(shared.status, shared.text).toBe(200);
    const invitationToken = await tokenIn(invited, resetPattern);

    const moved = `moved-${email}`;
    expect((await adminCall('edit-user', { userId: await userIdOf(email), email: moved })).status).toBe(200);
    expect((await adminCall('edit-user', { userId: await userIdOf(invited), email: `moved-${invited}` })).status).toBe(200);

    for (const link of [resetToken, invitationToken]) {
      const validated = await client.call(`/api/investor/validate-reset-token/${link}`, { from: freshAddress() });
      expect(validated.json).toMatchObject({ valid: false });
      const reset = await client.call('/api/investor/reset-password', {
        body: { token: link, password: 'Taken@Over99', confirmPassword: 'Taken@Over99' },
        from: freshAddress(),
      });
      expect(reset.status).toBe(400);
    }
    expect((await confirm(confirmToken)).status).toBe(400);
    // The old mailbox's undo link would have taken the address back, with a fresh reset link to it.
    expect((await undo(undoToken)).status).toBe(400);
    expect((await em().findOneOrFail(User, { email: moved })).email).toBe(moved);
    expect((await signInAs(moved, 'Taken@Over99')).status).toBe(401);
    expect((await signInAs(moved)).status).toBe(200);
  });

  it('writes no link token to the log, the portal pages that open them included', async () => {
    const { email, token } = await newInvestor();
    const wanted = `logged-${email}`;
    expect((await update(token, { email: wanted, currentPassword: demoPassword })).status).toBe(200);
    const confirmToken = await tokenIn(wanted, confirmPattern);
    const undoToken = await tokenIn(email, undoPattern);
    for (const page of [`/investor-services?confirmEmail=${confirmToken}`, `/investor-services?undoEmail=${undoToken}`]) {
      await (await server.api(page, { redirect: 'manual' })).arrayBuffer();
    }
    expect((await confirm(confirmToken)).status).toBe(200);
    expect((await confirm(confirmToken)).status).toBe(400);
    expect((await undo(undoToken)).status).toBe(200);
    // Lines are written when an answer's connection closes, a moment after the client has it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log).toContain('/investor-services');
    expect(log).toContain('/api/investor/confirm-email-change');
    for (const secret of [confirmToken, undoToken]) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(secret.slice(0, 16));
    }
    expect(log).not.toMatch(/confirmEmail|undoEmail/);
  });
});
