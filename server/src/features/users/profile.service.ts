import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProfileAnswer, UpdateProfileAnswer, UpdateProfileBody } from '@everest/core/contract';
import { displayName, fieldMax, joinFullName, portalSuccess, splitFullName } from '@everest/core/domain';
import type { Config } from '../../config';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import { emailChangedMail } from '../auth/auth-mail';
import { activeSessionUser } from '../auth/session';
import { enqueueMail } from '../mail/outbox';
import { toUserAnswer } from './user-answer';
import { User } from './user.entity';

const emailTaken = 'That email address is already used by another account. Please choose another one.';
const builtInAdminEmailLocked = "The built-in administrator's email address cannot be changed.";

export async function getProfile(em: EntityManager, sessionUser: SessionUser): Promise<ProfileAnswer> {
  const user = await activeSessionUser(em, sessionUser);
  return { user: toUserAnswer(user) };
}

/**
 * Saves the caller's own profile. First and last name are held as one full name split at the
 * first space (spec section 2), so 'Mary Ann' + 'Smith' is saved as 'Mary' + 'Ann Smith' and
 * every client shows the same parts. Fields left out of the body keep their value.
 */
export async function updateProfile(
  em: EntityManager,
  config: Config,
  sessionUser: SessionUser,
  body: UpdateProfileBody,
): Promise<UpdateProfileAnswer> {
  const saved = await em.transactional(async (tx) => {
    const user = await activeSessionUser(tx, sessionUser);
    const oldEmail = user.email;

    if (body.email !== oldEmail) {
      // The built-in administrator is who ADMIN_EMAIL names: renaming it would orphan the setting.
      if (oldEmail === config.adminEmail) throw new HttpError(403, builtInAdminEmailLocked);
      if ((await tx.count(User, { email: body.email, id: { $ne: user.id } })) > 0) throw new HttpError(409, emailTaken);
      user.email = body.email;
      enqueueMail(tx, emailChangedMail(oldEmail, displayName(user), body.email));
    }

    if (body.firstName !== undefined || body.lastName !== undefined) {
      const { firstName, lastName } = splitFullName(
        joinFullName(body.firstName ?? user.firstName, body.lastName ?? user.lastName),
      );
      if (firstName.length > fieldMax.name || lastName.length > fieldMax.name) {
        throw new HttpError(400, `First and last name must each be ${fieldMax.name} characters or fewer.`);
      }
      user.firstName = firstName;
      user.lastName = lastName;
    }
    if (body.entity !== undefined) user.entity = body.entity;
    if (body.streetAddress !== undefined) user.streetAddress = body.streetAddress;
    if (body.city !== undefined) user.city = body.city;
    if (body.state !== undefined) user.state = body.state;
    if (body.zipCode !== undefined) user.zipCode = body.zipCode;
    return user;
  }).catch((error: unknown) => {
    // Two accounts taking the same new address at the same moment: the unique index decides.
    if (error instanceof UniqueConstraintViolationException) throw new HttpError(409, emailTaken);
    throw error;
  });
  return { message: portalSuccess.profileUpdated.description, user: toUserAnswer(saved) };
}
