import { z } from 'zod';
import { assignableRoles, roles } from '../../domain/enums';
import { fieldMax, maxAddedIdentifiers } from '../../domain/limits';
import { portalMessages } from '../../domain/messages';
import { newPassword } from '../../domain/password';
import { splitFullName } from '../../domain/format';
import { ownerProofFields } from './owner-proof';
import { emailAddress, identifierText, idOf, nameText, optionalText, pageLimit, pageNumber, requiredText, timestamp, yesNo } from './fields';

// Text fields a user may leave empty answer '' (never null), so that forms bind them directly.
export const user = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  entity: z.string(),
  streetAddress: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  role: z.enum(roles),
  isActive: z.boolean(),
  lastLoginAt: timestamp.nullable(),
  /** The sign-in before the last one (null before a second sign-in): the portal shows it. */
  previousLoginAt: timestamp.nullable(),
});
export type User = z.infer<typeof user>;

const role = z.enum(assignableRoles, { error: 'Please choose a role: Investor, Everest Employee or Administrator.' });

// The address and name fields of a profile. On an update, an absent field is left as it is and
// an empty string clears it.
const profileFields = {
  firstName: nameText('First name', fieldMax.name),
  lastName: nameText('Last name', fieldMax.name),
  entity: nameText('Entity', fieldMax.entity),
  streetAddress: optionalText('Street address', fieldMax.streetAddress),
  city: optionalText('City', fieldMax.city),
  state: optionalText('State', fieldMax.state),
  zipCode: optionalText('ZIP code', fieldMax.zipCode),
};

// ---- Own profile (investor calls) ----------------------------------------------------------

/**
 * A new e-mail address waiting for its owner to open the link sent to it: until then
 * the account keeps its address. `expiresAt` is when the link stops working.
 */
export const pendingEmailChange = z.object({ email: z.string(), expiresAt: timestamp });
export type PendingEmailChange = z.infer<typeof pendingEmailChange>;

/**
 * GET /api/investor/profile. decided: the user under `user`, like the login answer, and the
 * e-mail change waiting for confirmation (null when none), so that Manage Profile can say so.
 */
export const profileAnswer = z.object({ user, pendingEmail: pendingEmailChange.nullable() });
export type ProfileAnswer = z.infer<typeof profileAnswer>;

/**
 * A new `email` needs an owner proof (the current password or a second-step code) and takes
 * effect only once the link sent to it is opened; the other fields save without one.
 */
export const updateProfileBody = z.object({
  ...profileFields,
  email: emailAddress(portalMessages.enterEmail),
  ...ownerProofFields,
});
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;

/**
 * decided: the saved user comes back so the header shows it without another request, with the
 * e-mail change now waiting (the same answer whether or not another account uses that address).
 */
export const updateProfileAnswer = z.object({ message: z.string(), user, pendingEmail: pendingEmailChange.nullable() });
export type UpdateProfileAnswer = z.infer<typeof updateProfileAnswer>;

/** The token of an e-mail change's link (confirm, sent to the new address; undo, sent to the old one), in the body. */
export const emailChangeLinkBody = z.object({
  token: z
    .string({ error: portalMessages.invalidEmailChangeLink.description })
    .trim()
    .min(1, portalMessages.invalidEmailChangeLink.description)
    .max(fieldMax.resetToken, portalMessages.invalidEmailChangeLink.description),
});
export type EmailChangeLinkBody = z.infer<typeof emailChangeLinkBody>;

/** What the link did, and the account's e-mail address now. */
export const emailChangeLinkAnswer = z.object({ message: z.string(), email: z.string() });
export type EmailChangeLinkAnswer = z.infer<typeof emailChangeLinkAnswer>;

// ---- Administration of users ---------------------------------------------------------------

/**
 * Where an account stands, first match wins: `deactivated`; `active`, signed in at
 * least once; `invited`, a welcome link was sent and no password chosen yet; `never-signed-in`,
 * the rest (a password given by an administrator, or an import without welcome e-mails).
 */
export const userStatuses = ['invited', 'active', 'never-signed-in', 'deactivated'] as const;
export type UserStatus = (typeof userStatuses)[number];
export const userStatusLabels: Record<UserStatus, string> = {
  invited: 'Invited',
  active: 'Active',
  'never-signed-in': 'Never signed in',
  deactivated: 'Deactivated',
};

/**
 * GET /api/admin/users. Without `page` the spec's call answers every user; the panel always
 * asks for a page (10 by default), searched by name, entity or e-mail (DECISIONS.md), and
 * narrowed by role and status when asked.
 */
export const adminUsersQuery = z.object({
  page: pageNumber.optional(),
  limit: pageLimit.optional(),
  search: optionalText('Search', fieldMax.search),
  role: z.enum(roles, { error: 'Please choose a role: Investor, Everest Employee, Administrator or Delegate.' }).optional(),
  status: z.enum(userStatuses, { error: 'Please choose a status: Invited, Active, Never signed in or Deactivated.' }).optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;

/**
 * A row of the administrators' list: the user, where the account stands, and how many personal
 * documents are theirs (the delete dialog names them). `lastLoginAt` is the last sign-in.
 * `identifiers`: those administrators added, as typed, in the order added; the full name and
 * entity identify the investor too, without being listed here.
 */
export const adminUser = user.extend({
  status: z.enum(userStatuses),
  personalDocuments: z.number().int().nonnegative(),
  identifiers: z.array(z.string()),
});
export type AdminUser = z.infer<typeof adminUser>;

/**
 * `totalCount` counts every user the search matches, on every page. `builtInAdministratorEmail`
 * is the server's ADMIN_EMAIL: the panel locks that row's e-mail and hides its Delete (spec
 * section 5), as the server refuses both anyway.
 */
export const adminUsersAnswer = z.object({
  users: z.array(adminUser),
  totalCount: z.number().int().nonnegative(),
  builtInAdministratorEmail: z.string(),
});
export type AdminUsersAnswer = z.infer<typeof adminUsersAnswer>;

/** A user's access to one property, by the property's name. */
export const userPropertyLink = z.object({ userId: z.number().int(), property: z.string() });
export type UserPropertyLink = z.infer<typeof userPropertyLink>;

/** GET /api/admin/user-properties: every link of every user. */
export const adminUserPropertiesAnswer = z.object({ userProperties: z.array(userPropertyLink) });
export type AdminUserPropertiesAnswer = z.infer<typeof adminUserPropertiesAnswer>;

const propertyName = requiredText('Property name', fieldMax.propertyName, 'Please choose a property.');

/** An empty password field means "generate one". */
const optionalNewPassword = z
  .union([z.literal('').transform(() => undefined), newPassword])
  .optional();

export const createUserBody = z
  .object({
    /** The full name; the server splits it at the first space. */
    name: nameText('Full name', fieldMax.fullName),
    entity: nameText('Entity', fieldMax.entity),
    email: emailAddress(),
    role: role.default('user'),
    password: optionalNewPassword,
    properties: z.array(propertyName, { error: 'Please choose properties from the list.' }).default([]),
    sendWelcomeEmail: yesNo('Send welcome email', false),
  })
  .superRefine((body, ctx) => {
    if (!body.name && !body.entity) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'Please enter a full name or an entity.' });
    }
    const { firstName, lastName } = splitFullName(body.name ?? '');
    if (firstName.length > fieldMax.name || lastName.length > fieldMax.name) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: `First and last name must each be ${fieldMax.name} characters or fewer.`,
      });
    }
  });
export type CreateUserBody = z.infer<typeof createUserBody>;

/**
 * `password` is the generated password, shown once in the 'User Created' toast; null when the
 * administrator typed one. The welcome e-mail never carries a password (DECISIONS.md).
 */
export const createUserAnswer = z.object({ message: z.string(), user, password: z.string().nullable() });
export type CreateUserAnswer = z.infer<typeof createUserAnswer>;

/**
 * Every field but `userId` may be left out, and is then left as it is. `identifiers` replaces
 * every identifier administrators added (an empty list removes them all); the server refuses one
 * another account already has as its name, entity or an added identifier.
 */
export const editUserBody = z.object({
  userId: idOf('user'),
  ...profileFields,
  email: emailAddress().optional(),
  role: role.optional(),
  isActive: z.boolean({ error: 'Active must be yes or no.' }).optional(),
  identifiers: z
    .array(identifierText(), { error: 'Identifiers must be a list.' })
    .max(maxAddedIdentifiers, `An investor can have at most ${maxAddedIdentifiers} added identifiers.`)
    .optional(),
});
export type EditUserBody = z.infer<typeof editUserBody>;

/**
 * The saved user as the list shows it, status included, so that the row is shown from it at once.
 * `token`: a new session for an administrator who changed their own role. Every session of the
 * account ends with the old role; the caller goes on in a session of the new one, as after a
 * password change.
 */
export const editUserAnswer = z.object({ message: z.string(), user: adminUser, token: z.string().optional() });
export type EditUserAnswer = z.infer<typeof editUserAnswer>;

export const userIdBody = z.object({ userId: idOf('user') });
export type UserIdBody = z.infer<typeof userIdBody>;
export const deleteUserBody = userIdBody;
export type DeleteUserBody = UserIdBody;

/** The user's personal documents go with the account (DECISIONS.md): the answer says how many. */
export const deleteUserAnswer = z.object({ message: z.string(), removedDocuments: z.number().int().nonnegative() });
export type DeleteUserAnswer = z.infer<typeof deleteUserAnswer>;
export const adminResetPasswordBody = userIdBody;
export type AdminResetPasswordBody = UserIdBody;

/** The administrator's "send reset link": whether the e-mail went into the outbox. */
export const adminResetPasswordAnswer = z.object({ message: z.string(), emailSent: z.boolean() });
export type AdminResetPasswordAnswer = z.infer<typeof adminResetPasswordAnswer>;

export const resendInvitationBody = userIdBody;
export type ResendInvitationBody = UserIdBody;

/** A fresh welcome e-mail: only for an account whose status is `invited`. */
export const resendInvitationAnswer = z.object({ message: z.string() });
export type ResendInvitationAnswer = z.infer<typeof resendInvitationAnswer>;

export const assignPropertyBody = z.object({ userId: idOf('user'), property: propertyName });
export type AssignPropertyBody = z.infer<typeof assignPropertyBody>;
export const removePropertyBody = assignPropertyBody;
export type RemovePropertyBody = AssignPropertyBody;
