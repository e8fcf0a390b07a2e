import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { generateSecret, generateURI } from 'otplib';
import QRCode from 'qrcode';
import {
  keepOneSecondStep,
  maxPasskeys,
  type AdminSecondStepAnswer,
  type BackupCodesAnswer,
  type ConfirmTotpAnswer,
  type ConfirmTotpBody,
  type MessageAnswer,
  type OwnerProof,
  type PasskeyCreationOptionsAnswer,
  type RegisterPasskeyAnswer,
  type RegisterPasskeyBody,
  type RemovePasskeyBody,
  type SecondStepRemovedAnswer,
  type SecondStepStatusAnswer,
  type StartTotpAnswer,
} from '@everest/core/contract';
import { displayName } from '@everest/core/domain';
import type { Config } from '../../../config';
import { HttpError } from '../../../http/errors';
import type { SessionUser } from '../../../http/state';
import { recordAdminAction } from '../../audit/admin-audit';
import { enqueueMail } from '../../mail/outbox';
import { User } from '../../users/user.entity';
import {
  authenticatorRemovedMail,
  backupCodesRenewedMail,
  passkeyAddedMail,
  passkeyRemovedMail,
  secondStepOnMail,
  secondStepRemovedMail,
} from '../auth-mail';
import { countProof } from '../login-attempts';
import { proveOwner } from '../owner-proof';
import { activeSessionUser, sessionTokens } from '../session';
import { Passkey, PasskeyChallenge } from './passkey.entity';
import { checkRegistration, creationOptions, passkeySummary } from './passkeys';
import { BackupCode, SecondStep, SecondStepChallenge } from './second-step.entity';
import {
  backupCodesLeft,
  isOn,
  noSecondStep,
  refusedCode,
  replaceBackupCodes,
  secondStepRow,
  secondSteps,
  totpTimeStep,
  } from './second-step-codes';
import { secondStepSecrets } from './second-step-secrets';

const issuer = 'Everest Properties';

// ---- Manage Profile ------------------------------------------------------------------------

/**
 * Turning two-step sign-in on or off ends every session of the user, in the caller's transaction,
 * as a new password does: a session opened with the password alone must not go on once the
 * account has a second step, nor one opened with it once it is gone. Answers the new version.
 */
async function endSessions(tx: EntityManager, userId: number): Promise<number> {
  const row = await tx.findOneOrFail(User, userId);
  row.tokenVersion += 1;
  return row.tokenVersion;
}

/**
 * The caller's session goes on in a new token: with the second step when the caller just proved
 * one by turning it on, password-only when it was turned off.
 */
const continuedSession = (config: Config, userId: number, tokenVersion: number, secondStep: boolean) =>
  sessionTokens(config).issue({ userId, tokenVersion, secondStep });

export async function secondStepStatus(em: EntityManager, config: Config, sessionUser: SessionUser): Promise<SecondStepStatusAnswer> {
  const steps = await secondSteps(em, sessionUser.id);
  return {
    totp: steps.totp,
    passkeys: steps.passkeys.map(passkeySummary),
    backupCodesLeft: steps.any ? await backupCodesLeft(em, sessionUser.id) : 0,
    required: config.secondStep.requiredRoles.includes(sessionUser.role),
  };
}

const totpAlreadyOn = 'An authenticator app is set up already. Remove it first to use another one.';

/**
 * A new secret, kept encrypted as pending until a code from the app confirms it, for an owner
 * proof (a stolen session must not tie the account to the thief's phone). The only answer that
 * ever carries it; starting again replaces it.
 */
export async function startTotp(em: EntityManager, config: Config, sessionUser: SessionUser, proof: OwnerProof, address: string): Promise<StartTotpAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  // Refused before the proof, so that a backup code given as proof is not spent for nothing.
  if (isOn(await secondStepRow(em, user.id))) throw new HttpError(409, totpAlreadyOn);
  await proveOwner(em, config, user, proof, address);
  const secret = generateSecret();
  // The row is made if missing and then locked: set-ups started at once (a double click, two
  // tabs) take turns, and the last one's secret is the one waiting for a code.
  await em.transactional(async (tx) => {
    await tx.createQueryBuilder(SecondStep).insert({ user: user.id, createdAt: new Date(), updatedAt: new Date() }).onConflict('user').ignore().execute();
    const row = await tx.findOneOrFail(SecondStep, { user: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (isOn(row)) throw new HttpError(409, totpAlreadyOn);
    row.totpPendingSecret = secondStepSecrets(config.secondStep.key).encrypt(secret);
  });
  const otpauthUrl = generateURI({ issuer, label: user.email, secret });
  // Drawn here, so that the secret never leaves for a third-party QR service.
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { message: 'Scan the code with your authenticator app, then enter the 6-digit code it shows.', secret, otpauthUrl, qrSvg };
}

/** The first right code turns TOTP on, makes the backup codes, and tells the user by e-mail. */
export async function confirmTotp(em: EntityManager, config: Config, sessionUser: SessionUser, body: ConfirmTotpBody, address: string): Promise<ConfirmTotpAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  const row = await secondStepRow(em, user.id);
  if (isOn(row)) throw new HttpError(409, 'Two-step sign-in is already on.');
  if (!row?.totpPendingSecret) throw new HttpError(409, 'Please start the set-up again: no authenticator app is waiting for a code.');

  const attempt = await countProof(em, user.email, address);
  const secrets = secondStepSecrets(config.secondStep.key);
  const step = await totpTimeStep(secrets.decrypt(row.totpPendingSecret), body.code, null);
  if (step === null || step === 'used') throw new HttpError(400, refusedCode(step));
  await attempt.succeeded();

  const answer = await em.transactional(async (tx) => {
    const mine = await tx.findOneOrFail(SecondStep, row.id);
    mine.totpSecret = mine.totpPendingSecret;
    mine.totpPendingSecret = null;
    mine.totpEnabledAt = new Date();
    // The code that confirmed the set-up does not sign in too.
    mine.totpLastTimeStep = step;
    // Beside passkeys, two-step sign-in was on already: sessions go on.
    const turnsOn = (await tx.count(Passkey, { user: user.id })) === 0;
    const backupCodes = await replaceBackupCodes(tx, config, user);
    enqueueMail(tx, secondStepOnMail(user.email, displayName(user)));
    const endedAt = turnsOn ? await endSessions(tx, user.id) : null;
    return { message: 'Two-step sign-in is on. Save your backup codes now: they are shown only once.', backupCodes, endedAt };
  });
  // This session typed the app's first code: it goes on as one opened with the second step.
  const { endedAt, ...rest } = answer;
  return endedAt === null ? rest : { ...rest, token: await continuedSession(config, user.id, endedAt, true) };
}

/** A new set of backup codes, for an owner proof; the old set stops working, and the owner hears of it. */
export async function regenerateBackupCodes(
  em: EntityManager,
  config: Config,
  sessionUser: SessionUser,
  proof: OwnerProof,
  address: string,
): Promise<BackupCodesAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  if (!(await secondSteps(em, user.id)).any) throw new HttpError(409, noSecondStep);
  await proveOwner(em, config, user, proof, address);
  return em.transactional(async (tx) => {
    const backupCodes = await replaceBackupCodes(tx, config, user);
    enqueueMail(tx, backupCodesRenewedMail(user.email, displayName(user)));
    return { message: 'New backup codes are ready. Save them now: they are shown only once, and the old ones no longer work.', backupCodes };
  });
}

/**
 * Takes the user's row lock for a removal: two removals at once (the app and the last passkey,
 * two tabs) take turns, so that a role that must have a second step never ends with none.
 */
async function lockForRemoval(tx: EntityManager, userId: number): Promise<void> {
  await tx.findOneOrFail(User, userId, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

/**
 * Removes the authenticator app alone, for an owner proof; passkeys and backup
 * codes stay. The last second step of a role that must have one stays; removing the last of any
 * other account turns two-step sign-in off, backup codes included. E-mailed either way.
 */
export async function removeTotp(
  em: EntityManager,
  config: Config,
  sessionUser: SessionUser,
  proof: OwnerProof,
  address: string,
): Promise<SecondStepRemovedAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  const required = config.secondStep.requiredRoles.includes(user.role);
  // Checked before the proof (a code is not spent on a refusal) and again under the lock.
  const check = async (tx: EntityManager) => {
    const steps = await secondSteps(tx, user.id);
    if (!steps.totp) throw new HttpError(409, 'No authenticator app is set up on your account.');
    if (required && steps.passkeys.length === 0) throw new HttpError(409, keepOneSecondStep.totp);
    return { last: steps.passkeys.length === 0 };
  };
  await check(em);
  await proveOwner(em, config, user, proof, address);
  const { message, endedAt } = await em.transactional(async (tx) => {
    await lockForRemoval(tx, user.id);
    const { last } = await check(tx);
    if (last) await removeSecondStepRows(tx, user.id);
    else await tx.nativeUpdate(SecondStep, { user: user.id }, { totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastTimeStep: null });
    enqueueMail(tx, authenticatorRemovedMail(user.email, displayName(user), !last));
    return {
      message: last ? 'The authenticator app is removed, and two-step sign-in is off.' : 'The authenticator app is removed.',
      endedAt: last ? await endSessions(tx, user.id) : null,
    };
  });
  return endedAt === null ? { message } : { message, token: await continuedSession(config, user.id, endedAt, false) };
}

/** Every second step of the user (authenticator app, passkeys, backup codes) and open challenges. */
async function removeSecondStepRows(em: EntityManager, userId: number): Promise<void> {
  await em.nativeDelete(BackupCode, { user: userId });
  await em.nativeDelete(SecondStepChallenge, { user: userId });
  await em.nativeDelete(PasskeyChallenge, { user: userId });
  await em.nativeDelete(Passkey, { user: userId });
  await em.nativeDelete(SecondStep, { user: userId });
}

// ---- Passkeys ------------------------------------------------------------------------------

/**
 * The options of a new passkey, for an owner proof: the challenge in them is the only way to
 * register one, so a stolen session cannot add the thief's passkey.
 */
export async function passkeyCreationOptions(
  em: EntityManager,
  config: Config,
  sessionUser: SessionUser,
  proof: OwnerProof,
  address: string,
): Promise<PasskeyCreationOptionsAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  if ((await em.count(Passkey, { user: user.id })) >= maxPasskeys) {
    throw new HttpError(409, `An account can keep ${maxPasskeys} passkeys. Please remove one first.`);
  }
  await proveOwner(em, config, user, proof, address);
  return { options: await creationOptions(em, config, user, displayName(user)) };
}

/**
 * Stores a new passkey whose answer signs a challenge this user was given for it. The account's
 * first second step also makes its backup codes, answered once; the user hears of it by e-mail.
 */
export async function registerPasskey(em: EntityManager, config: Config, sessionUser: SessionUser, body: RegisterPasskeyBody): Promise<RegisterPasskeyAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  const credential = await checkRegistration(em, config, user, body.response);
  if (!credential) throw new HttpError(400, 'The passkey could not be added: its answer did not match. Please try again.');
  const { endedAt, ...answer } = await em.transactional(async (tx) => {
    if (await tx.count(Passkey, { credentialId: credential.credentialId })) throw new HttpError(409, 'This passkey is added already.');
    if ((await tx.count(Passkey, { user: user.id })) >= maxPasskeys) {
      throw new HttpError(409, `An account can keep ${maxPasskeys} passkeys. Please remove one first.`);
    }
    const hadSecondStep = (await secondSteps(tx, user.id)).any;
    tx.create(Passkey, { user, name: body.name, ...credential });
    const backupCodes = hadSecondStep ? [] : await replaceBackupCodes(tx, config, user);
    enqueueMail(tx, passkeyAddedMail(user.email, displayName(user), body.name));
    const message = hadSecondStep
      ? `The passkey "${body.name}" is added.`
      : `The passkey "${body.name}" is added and two-step sign-in is on. Save your backup codes now: they are shown only once.`;
    return { message, backupCodes, endedAt: hadSecondStep ? null : await endSessions(tx, user.id) };
  });
  // The passkey just signed this session's challenge: it goes on as one opened with the second step.
  return endedAt === null ? answer : { ...answer, token: await continuedSession(config, user.id, endedAt, true) };
}

/**
 * Removes one passkey, for an owner proof (a wrong one counts like a failed sign-in). The last
 * second step of a role that must have one stays; removing the last of any other account turns
 * two-step sign-in off, backup codes included.
 */
export async function removePasskey(
  em: EntityManager,
  config: Config,
  sessionUser: SessionUser,
  { passkeyId, ...proof }: RemovePasskeyBody,
  address: string,
): Promise<SecondStepRemovedAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  const required = config.secondStep.requiredRoles.includes(user.role);
  // Checked before the proof (a code is not spent on a refusal) and again under the lock.
  const check = async (tx: EntityManager) => {
    const passkey = await tx.findOne(Passkey, { id: passkeyId, user: user.id });
    if (!passkey) throw new HttpError(404, 'That passkey is not on your account.');
    const steps = await secondSteps(tx, user.id);
    const last = !steps.totp && steps.passkeys.length === 1;
    if (last && required) throw new HttpError(409, keepOneSecondStep.passkey);
    return { passkey, last };
  };
  await check(em);
  await proveOwner(em, config, user, proof, address);
  const { message, endedAt } = await em.transactional(async (tx) => {
    await lockForRemoval(tx, user.id);
    const { passkey, last } = await check(tx);
    if (last) await removeSecondStepRows(tx, user.id);
    else await tx.nativeDelete(Passkey, { id: passkey.id });
    enqueueMail(tx, passkeyRemovedMail(user.email, displayName(user), passkey.name, !last));
    return {
      message: last ? `The passkey "${passkey.name}" is removed, and two-step sign-in is off.` : `The passkey "${passkey.name}" is removed.`,
      endedAt: last ? await endSessions(tx, user.id) : null,
    };
  });
  return endedAt === null ? { message } : { message, token: await continuedSession(config, user.id, endedAt, false) };
}

// ---- Administrators ------------------------------------------------------------------------

export async function adminSecondStep(em: EntityManager, userId: number): Promise<AdminSecondStepAnswer> {
  const steps = await secondSteps(em, userId);
  return { totp: steps.totp, passkeys: steps.passkeys.length, backupCodesLeft: steps.any ? await backupCodesLeft(em, userId) : 0 };
}

/**
 * For a user who lost their phone and backup codes and called the firm: signing in asks for the
 * password only again. Audited, and e-mailed to the user, in one transaction with the change.
 */
export async function removeSecondStep(em: EntityManager, actor: SessionUser, userId: number, address: string): Promise<MessageAnswer> {
  return em.transactional(async (tx) => {
    const user = await tx.findOne(User, { id: userId });
    if (!user) throw new HttpError(404, 'User not found.');
    if (!(await secondSteps(tx, user.id)).any) throw new HttpError(409, `${user.email} does not sign in with two steps.`);
    await removeSecondStepRows(tx, user.id);
    // Sessions opened with the removed second step end with it (an administrator removing
    // their own signs in again).
    user.tokenVersion += 1;
    recordAdminAction(tx, actor, address, {
      action: 'remove-second-step',
      subject: { type: 'user', id: user.id, label: user.email },
    });
    enqueueMail(tx, secondStepRemovedMail(user.email, displayName(user)));
    return { message: `Two-step sign-in was removed from ${user.email}.` };
  });
}
