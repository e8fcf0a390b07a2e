import type { User } from '@everest/core/contract';
import { displayName } from '@everest/core/domain';

/**
 * Whether a row is the signed-in administrator's own: its e-mail is locked and its delete
 * hidden. The web is not told which account is the built-in administrator (ADMIN_EMAIL is the
 * server's setting), and the server refuses to delete it or change its e-mail anyway
 * (DECISIONS.md). The built-in administrator is who usually runs the panel, so the rule that
 * the panel can keep is "your own account": you change your own e-mail in Manage Profile, where
 * the session follows it, and you never delete the account you are signed in with.
 */
export function isOwnRow(user: User, currentUser: Pick<User, 'id'> | undefined): boolean {
  return currentUser !== undefined && user.id === currentUser.id;
}

/** How the panel names a user in a sentence: name or entity, else the e-mail. */
export function userLabel(user: User): string {
  return displayName(user) || user.email;
}
