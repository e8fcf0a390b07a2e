import { randomInt } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  AdminResetPasswordAnswer,
  AdminUser,
  AdminUsersAnswer,
  AdminUsersQuery,
  CreateUserAnswer,
  CreateUserBody,
  DeleteUserAnswer,
  EditUserAnswer,
  EditUserBody,
  ResendInvitationAnswer,
  UserStatus,
} from '@everest/core/contract';
import { displayName, identifierKey, joinFullName, pageSize, passwordProblems, passwordSpecials, roleLabel, splitFullName, type Role } from '@everest/core/domain';
import type { Config } from '../../config';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import { changedFields, recordAdminAction, type AuditFields } from '../audit/admin-audit';
import { emailChangedMail, welcomeMail } from '../auth/auth-mail';
import { createPasswordLink, queuePasswordResetMail, voidResetTokens, welcomeLinkLifetimeMs } from '../auth/password-links';
import { hashPassword } from '../auth/password-hash';
import { sessionTokens } from '../auth/session';
import { PersonalDocument } from '../personal-documents/personal-document.entity';
import { enqueueMail } from '../mail/outbox';
import { Property } from '../properties/property.entity';
import { voidEmailChangeLinks } from './email-change.service';
import { identifiersColumnSql, identifierTakenOnRace, lockKeys, refuseNamesTaken, replaceIdentifiers } from './investor-identifiers';
import { PropertyAccess } from './property-access.entity';
import { toUserAnswer } from './user-answer';
import { User, type IUser } from './user.entity';

/** Who is acting, from where: every write is audited with both. */
export interface AdminCall {
  em: EntityManager;
  config: Config;
  actor: SessionUser;
  clientAddress: string;
}

export const adminUserMessages = {
  emailTaken: 'That email address is already used by another account. Please choose another one.',
  userNotFound: 'That user was not found. They may have been deleted already.',
  nameOrEntity: 'Please enter a full name or an entity.',
  builtInDelete: 'The built-in administrator cannot be deleted.',
  builtInRole: 'The built-in administrator must stay an administrator.',
  builtInDeactivate: 'The built-in administrator cannot be deactivated.',
  builtInEmail: "The built-in administrator's email address cannot be changed.",
  lastAdministrator: 'This would leave no active administrator. Make another user an administrator first.',
  deleteSelf: 'You cannot delete your own account. Ask another administrator to do it.',
  resetInactive: 'This account is deactivated. Activate it before sending a password reset link.',
  notInvited: {
    active: 'This user has already signed in, so there is no invitation to send again. Send a reset link if they forgot their password.',
    'never-signed-in':
      'This user has no invitation waiting: they already have a password (chosen or given by an administrator). Send a reset link if they need a new one.',
    deactivated: 'This account is deactivated. Activate it before sending the invitation again.',
  } satisfies Record<Exclude<UserStatus, 'invited'>, string>,
} as const;

export function notInvestorRelations(names: readonly string[]): string {
  const list = names.map((name) => `'${name}'`).join(', ');
  return names.length === 1
    ? `There is no property open to investor access named ${list}. Please choose one from the list.`
    : `There are no properties open to investor access named ${list}. Please choose them from the list.`;
}

// ---- Reads ---------------------------------------------------------------------------------

// The list's order, written exactly as the B-tree of migration 20261125000000 is, so that a page
// is read in order instead of sorting every user. A user without a last name (an entity, or a
// single name) sorts by what they have, so entities are not all bunched at the top. The search
// looks in `search_text` (full name, entity and e-mail, lower-cased), which its trigram index serves.
export const userListOrderSql = `lower(coalesce(nullif(last_name, ''), nullif(first_name, ''), entity)), lower(first_name), email, id`;
const isoUtc = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`;
/**
 * Where an account stands (core's `userStatuses`), the one place this rule is written. Invited:
 * a welcome link was made and no password chosen since (both kept by triggers, migration
 * 20261127170000), so an imported account without a password is never "active".
 */
export const userStatusSql = `case when not is_active then 'deactivated' when last_login_at is not null then 'active'
  when invited_at is not null and (password_set_at is null or password_set_at < invited_at) then 'invited' else 'never-signed-in' end`;
const userColumns = `id, first_name, last_name, email, entity, street_address, city, state, zip_code, role, is_active,
  ${isoUtc('last_login_at')}, ${isoUtc('previous_login_at')}, ${userStatusSql} as status,
  (select count(*) from user_documents d where d.user_id = users.id) as personal_documents, ${identifiersColumnSql}`;

/** A user's account columns as PostgreSQL answers them; the bulk import reads the same. */
export interface UserAccountRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  entity: string;
  street_address: string;
  city: string;
  state: string;
  zip_code: string;
  role: Role;
  is_active: boolean;
}

interface UserRow extends UserAccountRow {
  last_login_at: string | null;
  previous_login_at: string | null;
  status: UserStatus;
  personal_documents: string;
  identifiers: string[];
}

function fromRow(row: UserRow): AdminUser {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    entity: row.entity,
    streetAddress: row.street_address,
    city: row.city,
    state: row.state,
    zipCode: row.zip_code,
    role: row.role,
    isActive: row.is_active,
    lastLoginAt: row.last_login_at,
    previousLoginAt: row.previous_login_at,
    status: row.status,
    personalDocuments: Number(row.personal_documents),
    identifiers: row.identifiers,
  };
}

/** pg_trgm indexes runs of three characters: a shorter search cannot use the index. */
const trigramLength = 3;

/** `%`, `_` and `\` typed into the search box are searched for as themselves. */
function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * A search finds a user by name, entity or e-mail (search_text, which its trigram index serves)
 * or by an identifier administrators added, as typed or normalized ("smith trust dtd 3 1 2001"
 * finds "Smith Trust, dtd 3/1/2001"; "1234" finds "XXX-XX-1234"). A union rather than an OR, so
 * that the trigram index still serves the first half.
 */
export const userSearchSql = `users.id in (select s.id from users s where s.search_text like lower(?)
  union select i.user_id from investor_identifiers i where lower(i.identifier) like lower(?) or i.normalized like ?)`;

function searchParams(search: string): string[] {
  const normalized = identifierKey(search);
  // A search with no letter or digit ('%') matches every identifier as typed already.
  return [containsPattern(search), containsPattern(search), normalized === null ? '' : containsPattern(normalized)];
}

/**
 * The users an administrator sees, in the list's order. `search` keeps those whose full name,
 * entity, e-mail or an added identifier contains it, in any case; `role` and `status` keep those that have them; `page` or `limit` asks for one page (limit 10 when
 * only `page` is given, page 1 when only `limit` is), and `totalCount` counts every match. Without
 * either, as the spec calls it, every match comes back.
 */
export async function listUsers(em: EntityManager, config: Config, query: AdminUsersQuery): Promise<AdminUsersAnswer> {
  const builtInAdministratorEmail = config.adminEmail;
  const conditions: string[] = [];
  const whereParams: unknown[] = [];
  if (query.search) {
    // lower() in PostgreSQL, as search_text was made: JavaScript's lower-casing may differ beyond ASCII.
    conditions.push(userSearchSql);
    whereParams.push(...searchParams(query.search));
  }
  if (query.role) {
    conditions.push('role = ?');
    whereParams.push(query.role);
  }
  if (query.status) {
    conditions.push(`(${userStatusSql}) = ?`);
    whereParams.push(query.status);
  }
  const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
  if (query.page === undefined && query.limit === undefined) {
    const rows = await em.execute<UserRow[]>(`select ${userColumns} from users ${where} order by ${userListOrderSql}`, whereParams);
    return { users: rows.map(fromRow), totalCount: rows.length, builtInAdministratorEmail };
  }
  const limit = query.limit ?? pageSize;
  const offset = ((query.page ?? 1) - 1) * limit;
  if (!query.search || [...query.search].length < trigramLength) {
    const [rows, counted] = await Promise.all([
      em.execute<UserRow[]>(`select ${userColumns} from users ${where} order by ${userListOrderSql} limit ? offset ?`, [
        ...whereParams,
        limit,
        offset,
      ]),
      em.execute<{ count: string }[]>(`select count(*) from users ${where}`, whereParams),
    ]);
    return { users: rows.map(fromRow), totalCount: Number(counted[0]?.count ?? 0), builtInAdministratorEmail };
  }
  return em.transactional(async (tx) => {
    // The planner prices LIKE far below what it costs and scans the table (5 ms with 20,000
    // users), or walks the order's B-tree filtering row by row; the trigram index finds the
    // matches in a fraction of that, and a top-N sort of the matches beats both (measured: one
    // query for page and count, 2.9 ms against 2.1 + 4.9 ms). SET LOCAL ends with this transaction.
    await tx.execute('set local enable_seqscan = off; set local enable_indexscan = off');
    const rows = await tx.execute<(UserRow & { total_count: string })[]>(
      `select ${userColumns}, count(*) over () as total_count from users ${where} order by ${userListOrderSql} limit ? offset ?`,
      [...whereParams, limit, offset],
    );
    // A page past the last match has no row to carry the count.
    const totalCount = rows[0]
      ? Number(rows[0].total_count)
      : Number((await tx.execute<{ count: string }[]>(`select count(*) from users ${where}`, whereParams))[0]?.count ?? 0);
    return { users: rows.map(fromRow), totalCount, builtInAdministratorEmail };
  });
}

/** One user as the list shows it (after an edit, so that the panel's row is right at once). */
async function adminUserById(em: EntityManager, id: number): Promise<AdminUser> {
  const [row] = await em.execute<UserRow[]>(`select ${userColumns} from users where id = ?`, [id]);
  if (!row) throw new HttpError(404, adminUserMessages.userNotFound);
  return fromRow(row);
}

// ---- Passwords -----------------------------------------------------------------------------

// No look-alikes (0/O, 1/l/I): the administrator may read the password out over the phone.
const passwordAlphabet = `ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789${passwordSpecials}`;
/** 20 characters of 64 (24 upper, 25 lower, 8 digits, 7 specials): about 120 bits, beyond any guessing, still short enough to type. */
export const generatedPasswordLength = 20;

/** A random password from the system's CSPRNG that meets core's password rule. */
export function generatePassword(): string {
  for (;;) {
    let password = '';
    for (let i = 0; i < generatedPasswordLength; i += 1) password += passwordAlphabet.charAt(randomInt(passwordAlphabet.length));
    // About one draw in six misses a class (a digit or a special character); drawing again keeps
    // every character uniformly random, which forcing one of each into fixed places would not.
    if (passwordProblems(password).length === 0) return password;
  }
}

// ---- Helpers -------------------------------------------------------------------------------

export async function userById(em: EntityManager, id: number): Promise<IUser> {
  // Locked for the rest of the transaction: the checks below hold until the change commits.
  const user = await em.findOne(User, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!user) throw new HttpError(404, adminUserMessages.userNotFound);
  return user;
}

/**
 * Locks every active administrator's row, in id order, and answers their ids. A change that may
 * take an administrator away (demotion, deactivation, deletion) takes these locks before it
 * reads its user, always in this order, so two administrators demoting each other at the same
 * moment are decided one after the other (the second sees the first's change) and never
 * deadlock.
 */
async function lockActiveAdministrators(em: EntityManager): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>("select id from users where role = 'administrator' and is_active order by id for update");
  return rows.map((row) => row.id);
}

function refuseLosingLastAdministrator(administrators: readonly number[], user: IUser): void {
  if (administrators.every((id) => id === user.id)) throw new HttpError(409, adminUserMessages.lastAdministrator);
}

/** The investor-relations properties of these names; any other name is refused with 400. */
export async function investorProperties(em: EntityManager, names: readonly string[]) {
  const unique = [...new Set(names)];
  if (unique.length === 0) return [];
  const found = await em.find(Property, { name: { $in: unique }, investorRelations: true });
  const missing = unique.filter((name) => !found.some((p) => p.name === name));
  if (missing.length > 0) throw new HttpError(400, notInvestorRelations(missing));
  return found;
}

function emailTakenOnRace(error: unknown): never {
  // Two administrators (or an administrator and an import) taking the same address at once: the
  // unique index decides, and the loser hears the same sentence as with the check beforehand.
  if (error instanceof UniqueConstraintViolationException) throw new HttpError(409, adminUserMessages.emailTaken);
  throw error;
}

/** What an edit compares and the audit row shows: the account's fields, never its secrets. */
function auditedFields(user: IUser): AuditFields {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    entity: user.entity,
    streetAddress: user.streetAddress,
    city: user.city,
    state: user.state,
    zipCode: user.zipCode,
    role: user.role,
    isActive: user.isActive,
  };
}

// ---- Writes --------------------------------------------------------------------------------

/**
 * Opens an account with its property access and, if asked, a welcome e-mail carrying a 7-day
 * set-password link, all in one transaction. A blank password is generated and answered once.
 */
export async function createUser(call: AdminCall, body: CreateUserBody): Promise<CreateUserAnswer> {
  const { em, config, actor, clientAddress } = call;
  const generated = body.password === undefined ? generatePassword() : null;
  // Hashed before the transaction: argon2 takes tens of milliseconds and holds no lock.
  const passwordHash = await hashPassword(body.password ?? generated ?? '');
  const { firstName, lastName } = splitFullName(body.name ?? '');

  const user = await em
    .transactional(async (tx) => {
      const properties = await investorProperties(tx, body.properties);
      if ((await tx.count(User, { email: body.email })) > 0) throw new HttpError(409, adminUserMessages.emailTaken);
      await refuseNamesTaken(tx, null, [body.name ?? '', body.entity ?? '']);
      const created = tx.create(User, {
        email: body.email,
        passwordHash,
        firstName,
        lastName,
        entity: body.entity ?? '',
        role: body.role,
      });
      for (const property of properties) tx.create(PropertyAccess, { user: created, property });
      // The id is needed for the audit row.
      await tx.flush();
      if (body.sendWelcomeEmail) {
        const link = createPasswordLink(tx, config, created, welcomeLinkLifetimeMs);
        enqueueMail(tx, welcomeMail(created.email, displayName(created), link, welcomeLinkLifetimeMs / 86_400_000));
      }
      recordAdminAction(tx, actor, clientAddress, {
        action: 'create-user',
        subject: { type: 'user', id: created.id, label: created.email },
        after: {
          ...auditedFields(created),
          properties: properties.map((p) => p.name).sort(),
          passwordGenerated: generated !== null,
          welcomeEmail: body.sendWelcomeEmail,
        },
      });
      return created;
    })
    .catch(emailTakenOnRace);

  const mailed = body.sendWelcomeEmail ? ` A welcome email with a link to choose a password was sent to ${user.email}.` : '';
  return { message: `${displayName(user)} can now sign in.${mailed}`, user: toUserAnswer(user), password: generated };
}

/**
 * Saves the fields the body holds; absent fields keep their value. A new role, a deactivation or
 * a new e-mail ends the user's sessions (their token version moves on); the old address is told
 * of a new one. The built-in administrator keeps its e-mail, role and activity, and no edit may
 * leave the panel without an active administrator. `identifiers` replaces the identifiers
 * administrators added, in the same transaction (investor-identifiers.ts).
 */
export async function editUser(call: AdminCall, body: EditUserBody): Promise<EditUserAnswer> {
  const { em, config, actor, clientAddress } = call;
  const saved = await em
    .transactional(async (tx) => {
      const mayTakeAdministrator = (body.role !== undefined && body.role !== 'administrator') || body.isActive === false;
      const administrators = mayTakeAdministrator ? await lockActiveAdministrators(tx) : [];
      const user = await userById(tx, body.userId);
      const builtIn = user.email === config.adminEmail;
      const emailChanges = body.email !== undefined && body.email !== user.email;
      const roleChanges = body.role !== undefined && body.role !== user.role;
      const deactivates = body.isActive === false && user.isActive;
      if (builtIn && emailChanges) throw new HttpError(409, adminUserMessages.builtInEmail);
      if (builtIn && roleChanges) throw new HttpError(409, adminUserMessages.builtInRole);
      if (builtIn && deactivates) throw new HttpError(409, adminUserMessages.builtInDeactivate);
      if (user.role === 'administrator' && user.isActive && (roleChanges || deactivates)) refuseLosingLastAdministrator(administrators, user);
      const before = auditedFields(user);
      const [nameBefore, entityBefore] = [joinFullName(user.firstName, user.lastName), user.entity];

      // Kept as typed: "Olivia Rose" / "Brennan" reopens as it was entered. The
      // contract already bounds each field's length.
      if (body.firstName !== undefined) user.firstName = body.firstName;
      if (body.lastName !== undefined) user.lastName = body.lastName;
      if (body.entity !== undefined) user.entity = body.entity;
      // Asked of the names this edit sends: an old account without either can still get a new city.
      const namesSent = body.firstName !== undefined || body.lastName !== undefined || body.entity !== undefined;
      if (namesSent && !user.firstName && !user.lastName && !user.entity) throw new HttpError(400, adminUserMessages.nameOrEntity);
      const newName = joinFullName(user.firstName, user.lastName);
      const namesChanged = [newName !== nameBefore ? newName : '', user.entity !== entityBefore ? user.entity : ''];
      // Every text this save checks is locked at once, in one order, before any is read: locked
      // name by name and then identifier by identifier, two crossing saves could wait on each other.
      await lockKeys(tx, [...namesChanged, ...(body.identifiers ?? [])].map((text) => identifierKey(text) ?? '').filter(Boolean));
      await refuseNamesTaken(tx, user.id, namesChanged);
      if (body.streetAddress !== undefined) user.streetAddress = body.streetAddress;
      if (body.city !== undefined) user.city = body.city;
      if (body.state !== undefined) user.state = body.state;
      if (body.zipCode !== undefined) user.zipCode = body.zipCode;
      if (body.role !== undefined) user.role = body.role;
      if (body.isActive !== undefined) user.isActive = body.isActive;
      if (body.email !== undefined && emailChanges) {
        if ((await tx.count(User, { email: body.email, id: { $ne: user.id } })) > 0) throw new HttpError(409, adminUserMessages.emailTaken);
        enqueueMail(tx, emailChangedMail(user.email, displayName(user), body.email));
        user.email = body.email;
        // The old mailbox may be someone else's now: none of its links (reset, welcome, a
        // share's invitation, address confirmation or undo) may still open the account.
        const now = new Date();
        await voidResetTokens(tx, user, now);
        await voidEmailChangeLinks(tx, user.id, now);
      }
      // Sessions were granted to this e-mail, role and activity: none of them may outlive a change.
      if (emailChanges || roleChanges || deactivates) user.tokenVersion += 1;
      const identifiers = body.identifiers === undefined ? null : await replaceIdentifiers(tx, user, body.identifiers);

      const changes = changedFields(
        identifiers ? { ...before, identifiers: identifiers.before } : before,
        identifiers ? { ...auditedFields(user), identifiers: identifiers.after } : auditedFields(user),
      );
      if (Object.keys(changes.after).length > 0) {
        recordAdminAction(tx, actor, clientAddress, {
          action: 'edit-user',
          subject: { type: 'user', id: user.id, label: user.email },
          ...changes,
        });
      }
      return user;
    })
    .catch((error: unknown) => identifierTakenOnRace(em, body.userId, body.identifiers, error))
    .catch(emailTakenOnRace);

  const self = saved.id === actor.id;
  if (self && saved.role !== actor.role) {
    // Their sessions ended with the old role; this one goes on in the new (as after a password change).
    const token = await sessionTokens(config).issue({ userId: saved.id, tokenVersion: saved.tokenVersion, secondStep: actor.session.secondStep });
    return { message: `Your role has been changed to ${roleLabel(saved.role)}`, user: await adminUserById(em, saved.id), token };
  }
  return { message: 'User updated.', user: await adminUserById(em, saved.id) };
}

/**
 * Removes the account with its sessions, property access, reset links and personal documents
 * (the database's cascades), and answers how many documents went. Stored files stay in the
 * content store: another document may hold the same bytes. Audit rows keep the e-mail as text.
 */
export async function deleteUser(call: AdminCall, userId: number): Promise<DeleteUserAnswer> {
  const { em, config, actor, clientAddress } = call;
  const { email, removedDocuments } = await em.transactional(async (tx) => {
    const administrators = await lockActiveAdministrators(tx);
    const user = await userById(tx, userId);
    if (user.email === config.adminEmail) throw new HttpError(409, adminUserMessages.builtInDelete);
    if (user.id === actor.id) throw new HttpError(409, adminUserMessages.deleteSelf);
    if (user.role === 'administrator' && user.isActive) refuseLosingLastAdministrator(administrators, user);
    const documents = await tx.count(PersonalDocument, { user: user.id });
    const access = await tx.find(PropertyAccess, { user: user.id }, { populate: ['property'] });
    recordAdminAction(tx, actor, clientAddress, {
      action: 'delete-user',
      subject: { type: 'user', id: user.id, label: user.email },
      before: { ...auditedFields(user), properties: access.map((a) => a.property.name).sort(), personalDocuments: documents },
    });
    await tx.nativeDelete(User, { id: user.id });
    return { email: user.email, removedDocuments: documents };
  });
  const documents = removedDocuments === 1 ? '1 personal document' : `${removedDocuments} personal documents`;
  return { message: `${email} was deleted, with ${documents}.`, removedDocuments };
}

/** Queues the portal's ordinary reset e-mail for the user, as if they had asked for it. */
export async function sendResetLink(call: AdminCall, userId: number): Promise<AdminResetPasswordAnswer> {
  const { em, config, actor, clientAddress } = call;
  const email = await em.transactional(async (tx) => {
    const user = await userById(tx, userId);
    // The reset page refuses links of deactivated accounts: an e-mail would only disappoint.
    if (!user.isActive) throw new HttpError(409, adminUserMessages.resetInactive);
    queuePasswordResetMail(tx, config, user);
    recordAdminAction(tx, actor, clientAddress, { action: 'reset-password', subject: { type: 'user', id: user.id, label: user.email } });
    return user.email;
  });
  return { message: `A password reset link was sent to ${email}.`, emailSent: true };
}

/**
 * Sends the welcome e-mail again with a fresh 7-day link, only while the account's
 * status is 'invited'; the links sent before stop working, so that only the newest e-mail opens
 * the account.
 */
export async function resendInvitation(call: AdminCall, userId: number): Promise<ResendInvitationAnswer> {
  const { em, config, actor, clientAddress } = call;
  const email = await em.transactional(async (tx) => {
    const user = await userById(tx, userId);
    const [row] = await tx.execute<{ status: UserStatus }[]>(`select ${userStatusSql} as status from users where id = ?`, [user.id]);
    const status = row?.status ?? 'never-signed-in';
    if (status !== 'invited') throw new HttpError(409, adminUserMessages.notInvited[status]);
    await voidResetTokens(tx, user, new Date());
    const link = createPasswordLink(tx, config, user, welcomeLinkLifetimeMs);
    enqueueMail(tx, welcomeMail(user.email, displayName(user), link, welcomeLinkLifetimeMs / 86_400_000));
    recordAdminAction(tx, actor, clientAddress, { action: 'resend-invitation', subject: { type: 'user', id: user.id, label: user.email } });
    return user.email;
  });
  return { message: `A new invitation was sent to ${email}. Its link works for ${welcomeLinkLifetimeMs / 86_400_000} days.` };
}
