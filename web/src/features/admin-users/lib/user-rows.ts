import type { User } from '@everest/core/contract';
import { displayName } from '@everest/core/domain';

/** Whether a row is the signed-in administrator's own. */
export function isOwnRow(user: User, currentUser: Pick<User, 'id'> | undefined): boolean {
  return currentUser !== undefined && user.id === currentUser.id;
}

/**
 * Whether a row's e-mail is locked and its Delete hidden: the built-in administrator's
 * (ADMIN_EMAIL, which the user list answers; spec section 5), and your own account, which you
 * re-address in Manage Profile, where the session follows it, and never delete while signed in
 * with it. The server refuses all of these anyway (DECISIONS.md).
 */
export function isLockedRow(user: User, currentUser: Pick<User, 'id'> | undefined, builtInAdministratorEmail: string | undefined): boolean {
  return isOwnRow(user, currentUser) || user.email.toLowerCase() === builtInAdministratorEmail?.toLowerCase();
}

/** How the panel names a user in a sentence: name or entity, else the e-mail. */
export function userLabel(user: User): string {
  return displayName(user) || user.email;
}
