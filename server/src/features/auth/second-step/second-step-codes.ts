import type { EntityManager } from '@mikro-orm/postgresql';
import { verify } from 'otplib';
import { backupCodeCount, type SecondStepMethod } from '@everest/core/contract';
import type { Config } from '../../../config';
import { HttpError } from '../../../http/errors';
import type { IUser } from '../../users/user.entity';
import { countProof } from '../login-attempts';
import { userPasskeys } from './passkeys';
import { BackupCode, SecondStep, type ISecondStep } from './second-step.entity';
import { newBackupCode, secondStepSecrets } from './second-step-secrets';

/*
 * The account's second steps and the checking of their codes (authenticator app, backup codes):
 * what a sign-in's second half, the owner proof of a signed-in change and the Manage Profile
 * screens all ask, without the flows that ask it.
 */

/** One 30-second step either side of now: a phone's clock a little off still works. */
const epochToleranceSeconds = 30;

const wrongCode = 'That code is not correct. Please try again.';
/** RFC 6238 5.2 refuses a code of a step already used: the owner typed it twice, or someone replays it. */
const codeJustUsed = 'This code was just used. Please wait for your authenticator app to show the next one.';
export const noSecondStep = 'Two-step sign-in is not on for this account.';

export async function secondStepRow(em: EntityManager, userId: number): Promise<ISecondStep | null> {
  return em.findOne(SecondStep, { user: userId });
}

export const isOn = (row: ISecondStep | null): row is ISecondStep & { totpSecret: string } => !!row?.totpEnabledAt && !!row.totpSecret;

/** The user's second steps: an authenticator app, passkeys, or both; backup codes go with either. */
export async function secondSteps(em: EntityManager, userId: number) {
  const [row, passkeys] = await Promise.all([secondStepRow(em, userId), userPasskeys(em, userId)]);
  return { row, totp: isOn(row), passkeys, any: isOn(row) || passkeys.length > 0 };
}

/**
 * The time step a TOTP code is valid for, null for a wrong code, or 'used' for a right code of a
 * step at or before the last accepted one: refused, as a code seen over a shoulder or replayed
 * from a log must work for nobody, but told apart so that its owner knows to wait for the next.
 */
export async function totpTimeStep(secret: string, code: string, lastTimeStep: number | null): Promise<number | 'used' | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({ secret, token: code, epochTolerance: epochToleranceSeconds });
  if (!result.valid || !('timeStep' in result)) return null;
  return lastTimeStep !== null && result.timeStep <= lastTimeStep ? 'used' : result.timeStep;
}

/** The refusal of a code `useCode` did not take. */
export const refusedCode = (outcome: 'used' | null) => (outcome === 'used' ? codeJustUsed : wrongCode);

/**
 * Checks a TOTP code or a backup code and uses it up, atomically: of two requests racing with
 * the same code, one wins and the other is told the code was just used. Answers the method that
 * matched, 'used' for a TOTP code of a step already used, or null.
 */
export async function useCode(
  em: EntityManager,
  config: Config,
  userId: number,
  row: ISecondStep | null,
  code: string,
): Promise<SecondStepMethod | 'used' | null> {
  const secrets = secondStepSecrets(config.secondStep.key);
  const step = isOn(row) ? await totpTimeStep(secrets.decrypt(row.totpSecret), code, row.totpLastTimeStep ?? null) : null;
  if (step === 'used') return 'used';
  if (row && step !== null) {
    const moved = await em.nativeUpdate(
      SecondStep,
      { id: row.id, $or: [{ totpLastTimeStep: null }, { totpLastTimeStep: { $lt: step } }] },
      { totpLastTimeStep: step },
    );
    return moved === 1 ? 'totp' : 'used';
  }
  const used = await em.nativeUpdate(
    BackupCode,
    { user: userId, codeHash: secrets.hashBackupCode(code), usedAt: null },
    { usedAt: new Date() },
  );
  return used > 0 ? 'backup-code' : null;
}

/**
 * Checks a code for a signed-in call (an owner proof): wrong codes count with failed sign-ins,
 * as wrong current passwords do.
 */
async function proveCode(em: EntityManager, config: Config, user: IUser, row: ISecondStep | null, code: string, address: string) {
  const attempt = await countProof(em, user.email, address);
  const method = await useCode(em, config, user.id, row, code);
  if (method === null || method === 'used') throw new HttpError(400, refusedCode(method));
  await attempt.succeeded();
  return method;
}

/**
 * A current code (authenticator app or backup code) as the owner's proof for a signed-in change
 * (owner-proof.ts); refused with 400 when the account has no second step to prove with.
 */
export async function proveSecondStepCode(em: EntityManager, config: Config, user: IUser, code: string, address: string): Promise<void> {
  const steps = await secondSteps(em, user.id);
  if (!steps.any) throw new HttpError(400, `${noSecondStep} Please enter your current password.`);
  await proveCode(em, config, user, steps.row, code, address);
}

export async function backupCodesLeft(em: EntityManager, userId: number): Promise<number> {
  return em.count(BackupCode, { user: userId, usedAt: null });
}

/** A new set of backup codes in the caller's unit of work; the old set stops working. */
export async function replaceBackupCodes(em: EntityManager, config: Config, user: IUser): Promise<string[]> {
  const secrets = secondStepSecrets(config.secondStep.key);
  await em.nativeDelete(BackupCode, { user: user.id });
  const codes = Array.from({ length: backupCodeCount }, newBackupCode);
  for (const code of codes) em.create(BackupCode, { user, codeHash: secrets.hashBackupCode(code.replace('-', '')) });
  return codes;
}

