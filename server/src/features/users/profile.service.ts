import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProfileAnswer, UpdateProfileAnswer, UpdateProfileBody } from '@everest/core/contract';
import { portalSuccess } from '@everest/core/domain';
import type { Config } from '../../config';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import { proveOwner } from '../auth/owner-proof';
import { activeSessionUser } from '../auth/session';
import { cancelEmailChange, countEmailChangeRequest, pendingEmailChange, requestEmailChange } from './email-change.service';
import { toUserAnswer } from './user-answer';
import { User } from './user.entity';

const builtInAdminEmailLocked = "The built-in administrator's email address cannot be changed.";

export async function getProfile(em: EntityManager, sessionUser: SessionUser): Promise<ProfileAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  return { user: toUserAnswer(user), pendingEmail: await pendingEmailChange(em, user.id) };
}

/**
 * Saves the caller's own profile. First and last name are stored as typed ('Mary Ann' +
 * 'Smith' reopens so); only create-user's single full name is split at the first space. Fields
 * left out of the body keep their value.
 *
 * A new e-mail address needs an owner proof and only waits for the link sent to it
 * (email-change.service.ts): the answer is the same whether or not another account uses it.
 */
export async function updateProfile(
  em: EntityManager,
  config: Config,
  sessionUser: SessionUser,
  body: UpdateProfileBody,
  address: string,
): Promise<UpdateProfileAnswer> {
  const current = await activeSessionUser(em, sessionUser);
  // Kept as typed: the contract bounds each field's length.
  const firstName = body.firstName ?? current.firstName;
  const lastName = body.lastName ?? current.lastName;
  const emailChanges = body.email !== current.email;
  if (emailChanges) {
    // The built-in administrator is who ADMIN_EMAIL names: renaming it would orphan the setting.
    if (current.email === config.adminEmail) throw new HttpError(403, builtInAdminEmailLocked);
    await countEmailChangeRequest(em, current.id);
    await proveOwner(em, config, current, { currentPassword: body.currentPassword, code: body.code }, address);
  }

  return em.transactional(async (tx) => {
    const user = await tx.findOne(User, { id: current.id, isActive: true }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!user) throw new HttpError(401, 'Please sign in to continue.');
    if (body.firstName !== undefined || body.lastName !== undefined) {
      user.firstName = firstName;
      user.lastName = lastName;
    }
    if (body.entity !== undefined) user.entity = body.entity;
    if (body.streetAddress !== undefined) user.streetAddress = body.streetAddress;
    if (body.city !== undefined) user.city = body.city;
    if (body.state !== undefined) user.state = body.state;
    if (body.zipCode !== undefined) user.zipCode = body.zipCode;
    // The address proven above is the one the change is asked from; if it moved meanwhile, ask again.
    if (emailChanges && user.email !== current.email) throw new HttpError(409, 'Your email address has just changed. Please reload the page and try again.');
    const pendingEmail = emailChanges ? await requestEmailChange(tx, config, user, body.email) : await pendingEmailChange(tx, user.id);
    const message = emailChanges ? portalSuccess.emailChangeRequested(body.email).description : portalSuccess.profileUpdated.description;
    return { message, user: toUserAnswer(user), pendingEmail };
  });
}

/** Withdraws the e-mail change waiting for its link: the account keeps its address. */
export async function cancelOwnEmailChange(em: EntityManager, sessionUser: SessionUser): Promise<UpdateProfileAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  await cancelEmailChange(em, user.id);
  return { message: portalSuccess.emailChangeCancelled.description, user: toUserAnswer(user), pendingEmail: null };
}
