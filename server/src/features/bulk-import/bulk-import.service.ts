import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  BulkImportUsersAnswer,
  BulkImportUsersBody,
  ImportPreview,
  ImportResults,
  ImportRowError,
  ImportStaffRow,
  PreviewBulkImportAnswer,
  PreviewBulkImportBody,
} from '@everest/core/contract';
import {
  bulkImportChanges,
  importStaffRow,
  staffImportMessages,
  staffRowsToConfirm,
  unconfirmedStaffRows,
  validateBulkImportRows,
  type ValidImportRow,
} from '@everest/core/domain';
import type { Config } from '../../config';
import { executeBound } from '../../db/bound-query';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import { recordLargeAdminAction } from '../audit/admin-audit';
import { adminUserMessages, type UserAccountRow } from '../users/admin-users.service';
import { identifiersColumnSql } from '../users/investor-identifiers';
import { identifierCheckNeeds, identifierHolders, plannedRows, refusedIdentifierRows, writeIdentifiers } from './bulk-import-identifiers';
import {
  grantPropertyAccess,
  insertNewUsers,
  queuePropertyUpdateEmails,
  queueWelcomeEmails,
  updateChangedFields,
  type ExistingUser,
  type ImportUpdate,
} from './bulk-import-steps';

// The bulk user import. Every statement is set-based: the rows travel to PostgreSQL as one jsonb
// parameter read by jsonb_to_recordset, so 10,000 rows cost a handful of statements, never a
// query per row (STACK.md measured 2,000 to 4,000 rows/s per row, 40,000 and more per set).

/** Who is importing, from where: the import is audited with both. */
export interface ImportCall {
  em: EntityManager;
  config: Config;
  actor: SessionUser;
  clientAddress: string;
}

export const bulkImportMessages = {
  duplicatesFound: (count: number, examples: readonly string[]) =>
    `${count === 1 ? '1 user in the file already exists' : `${count} users in the file already exist`} (${examples.join(', ')}${
      count > examples.length ? ', …' : ''
    }), and duplicate handling is 'fail': nothing was imported.`,
} as const;

interface ExistingUserRow extends UserAccountRow {
  property_access: string[];
  identifiers: string[];
}

/** The investor-relations properties by name: the only ones an import may grant (DECISIONS.md). */
async function assignableProperties(em: EntityManager): Promise<Map<string, number>> {
  const rows = await executeBound<{ id: number; name: string }>(em, 'select id, name from properties where investor_relations');
  return new Map(rows.map((row) => [row.name, row.id]));
}

/**
 * The accounts of these e-mails with their property access, in one query. `lock` holds them
 * until the import commits, so that a change made meanwhile cannot slip between diff and update.
 */
async function existingUsers(em: EntityManager, emails: readonly string[], lock: boolean): Promise<Map<string, ExistingUser>> {
  if (emails.length === 0) return new Map();
  const rows = await executeBound<ExistingUserRow>(
    em,
    `select users.id, users.email, users.first_name, users.last_name, users.entity, users.street_address, users.city, users.state,
            users.zip_code, users.role, users.is_active,
            array(select p.name from property_access a join properties p on p.id = a.property_id where a.user_id = users.id) as property_access,
            ${identifiersColumnSql}
       from users
      where users.email in (select jsonb_array_elements_text(?::jsonb))
      ${lock ? 'for update of users' : ''}`,
    [JSON.stringify(emails)],
  );
  return new Map(
    rows.map((row) => [
      row.email,
      {
        id: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        entity: row.entity,
        streetAddress: row.street_address,
        city: row.city,
        state: row.state,
        zipCode: row.zip_code,
        role: row.role,
        isActive: row.is_active,
        propertyAccess: row.property_access,
        identifiers: row.identifiers,
      },
    ]),
  );
}

/** What the rows would do: the preview shows it, the import applies it. */
interface ImportPlan {
  errors: ImportRowError[];
  newRows: ValidImportRow[];
  /** Existing users the rows would change (real changes only). */
  updates: ImportUpdate[];
  /** E-mails of valid rows whose user exists, changed or not. */
  duplicates: string[];
  /** Rows that create a staff account or change a role, in file order. */
  staffRows: ImportStaffRow[];
}

/** The rows checked as the core checks them in the browser, against the assignable properties. */
async function checkedRows(em: EntityManager, body: PreviewBulkImportBody) {
  const properties = await assignableProperties(em);
  const { valid, errors } = validateBulkImportRows(body.csvData, { defaultRole: body.defaultRole, knownPropertyNames: [...properties.keys()] });
  return { properties, valid, errors };
}

function planImport(
  valid: readonly ValidImportRow[],
  errors: readonly ImportRowError[],
  existing: ReadonlyMap<string, ExistingUser>,
  config: Config,
): ImportPlan {
  const plan: ImportPlan = { errors: [...errors], newRows: [], updates: [], duplicates: [], staffRows: [] };
  for (const row of valid) {
    const user = existing.get(row.email);
    if (!user) {
      plan.newRows.push(row);
      const staff = importStaffRow(null, row);
      if (staff) plan.staffRows.push(staff);
      continue;
    }
    const diff = bulkImportChanges(user, row);
    // The same rule as edit-user: the built-in administrator stays one, whatever a file says.
    if (diff.changes.role && user.email === config.adminEmail) {
      plan.errors.push({ row: row.line, error: adminUserMessages.builtInRole });
      continue;
    }
    plan.duplicates.push(user.email);
    if (diff.hasChanges) plan.updates.push({ row, user, diff });
    const staff = importStaffRow(user.role, row);
    if (staff) plan.staffRows.push(staff);
  }
  plan.errors.sort((a, b) => a.row - b.row);
  return plan;
}

/**
 * Takes out of the plan every row whose identifiers (or new name or entity) another account or
 * an earlier row already has, as a row error with core's sentence: nothing of such a row is
 * written, as for any other row error.
 */
async function refuseTakenIdentifiers(em: EntityManager, plan: ImportPlan): Promise<ImportPlan> {
  const planned = plannedRows(plan.newRows, plan.updates);
  const needs = identifierCheckNeeds(planned);
  if (needs === 'none') return plan;
  const refused = refusedIdentifierRows(planned, await identifierHolders(em, needs === 'every-account'));
  if (refused.length === 0) return plan;
  const lines = new Set(refused.map((error) => error.row));
  const refusedEmails = new Set(plan.updates.filter((u) => lines.has(u.row.line)).map((u) => u.user.email));
  return {
    errors: [...plan.errors, ...refused].sort((a, b) => a.row - b.row),
    newRows: plan.newRows.filter((row) => !lines.has(row.line)),
    updates: plan.updates.filter((u) => !lines.has(u.row.line)),
    duplicates: plan.duplicates.filter((email) => !refusedEmails.has(email)),
    staffRows: plan.staffRows.filter((row) => !lines.has(row.row)),
  };
}

/** The dry run: what importing these rows would create and change, and the rows it would skip. */
export async function previewBulkImport(em: EntityManager, config: Config, body: PreviewBulkImportBody): Promise<PreviewBulkImportAnswer> {
  const { valid, errors } = await checkedRows(em, body);
  const existing = await existingUsers(em, valid.map((row) => row.email), false);
  const plan = await refuseTakenIdentifiers(em, planImport(valid, errors, existing, config));
  const preview: ImportPreview = {
    newUsers: plan.newRows.map((row) => ({
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      entity: row.entity,
      role: row.role,
      propertyAccess: row.propertyAccess,
      identifiers: row.identifiers ?? [],
    })),
    existingUsers: plan.updates.map(({ user, diff }) => ({
      email: user.email,
      hasChanges: true,
      changes: diff.changes,
      newPropertyAccess: diff.newPropertyAccess,
      newIdentifiers: diff.newIdentifiers,
      removedIdentifiers: diff.removedIdentifiers,
    })),
    errors: plan.errors,
    staffRows: plan.staffRows,
  };
  return { success: true, preview };
}

/** Refuses an import that would leave no active administrator (edit-user's rule, for many rows at once). */
async function refuseLosingLastAdministrator(em: EntityManager, updates: readonly ImportUpdate[]): Promise<void> {
  const demoted = new Set(
    updates.filter((u) => u.user.role === 'administrator' && u.user.isActive && u.diff.changes.role).map((u) => u.user.id),
  );
  if (demoted.size === 0) return;
  // Locked in id order, as edit-user does, so that concurrent demotions are decided one by one.
  const administrators = await executeBound<{ id: number }>(
    em,
    "select id from users where role = 'administrator' and is_active order by id for update",
  );
  if (administrators.every((row) => demoted.has(row.id))) throw new HttpError(409, adminUserMessages.lastAdministrator);
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function resultMessage(results: ImportResults): string {
  const parts = [
    `${plural(results.imported, 'user', 'users')} imported`,
    `${results.updated} updated`,
    `${results.skipped} skipped`,
    `${results.failed} failed`,
  ];
  const mails = [
    results.emailsSent > 0 ? plural(results.emailsSent, 'welcome email', 'welcome emails') : '',
    results.propertyUpdateEmailsSent > 0 ? plural(results.propertyUpdateEmailsSent, 'property update email', 'property update emails') : '',
  ].filter(Boolean);
  return `${parts.join(', ')}.${mails.length > 0 ? ` ${mails.join(' and ')} queued.` : ''}`;
}

/**
 * Imports the rows in one transaction: new users without a password (a welcome e-mail carries a
 * 7-day set-password link), existing users skipped, updated with their real changes, or the whole
 * import refused ('fail'), e-mails queued in the outbox in the same transaction, one audit row.
 */
export async function bulkImportUsers(call: ImportCall, body: BulkImportUsersBody): Promise<BulkImportUsersAnswer> {
  const { em, config, actor, clientAddress } = call;
  const results = await em.transactional(async (tx): Promise<ImportResults> => {
    const { properties, valid, errors } = await checkedRows(tx, body);
    const existing = await existingUsers(tx, valid.map((row) => row.email), body.duplicateHandling === 'update');
    const plan = await refuseTakenIdentifiers(tx, planImport(valid, errors, existing, config));

    if (body.duplicateHandling === 'fail' && plan.duplicates.length > 0) {
      throw new HttpError(409, bulkImportMessages.duplicatesFound(plan.duplicates.length, plan.duplicates.slice(0, 3)));
    }
    // Every staff row this import would write must be confirmed by e-mail and role,
    // checked before anything is written or e-mailed.
    const staffRows = staffRowsToConfirm(plan.staffRows, body.duplicateHandling);
    const unconfirmed = unconfirmedStaffRows(staffRows, body.confirmedStaffRows);
    if (unconfirmed.length > 0) throw new HttpError(409, staffImportMessages.notConfirmed(unconfirmed));
    const updates = body.duplicateHandling === 'update' ? plan.updates : [];
    await refuseLosingLastAdministrator(tx, updates);

    const { created, newIds } = await insertNewUsers(tx, plan.newRows);
    await updateChangedFields(tx, updates);
    await grantPropertyAccess(tx, properties, created, newIds, updates);
    await writeIdentifiers(tx, created, newIds, updates);
    const emailsSent = body.sendWelcomeEmails ? await queueWelcomeEmails(tx, config, created, newIds) : 0;
    const propertyUpdateEmailsSent = body.sendUpdateEmails ? await queuePropertyUpdateEmails(tx, config, updates) : 0;

    const results: ImportResults = {
      imported: created.length,
      updated: updates.length,
      skipped: plan.duplicates.length - updates.length + (plan.newRows.length - created.length),
      failed: plan.errors.length,
      emailsSent,
      propertyUpdateEmailsSent,
      errors: plan.errors,
    };
    // One row per import, a run that changed nothing included: who tried what is history too.
    await recordLargeAdminAction(tx, actor, clientAddress, {
      action: 'bulk-import-users',
      subject: { type: 'import', id: null, label: `${body.csvData.length} rows` },
      after: {
        duplicateHandling: body.duplicateHandling,
        defaultRole: body.defaultRole,
        imported: created.map((row) => row.email),
        identifiersOfImported: created.filter((row) => row.identifiers).map((row) => ({ email: row.email, identifiers: row.identifiers })),
        // The staff accounts created or roles changed, each confirmed in the request.
        staffRows: staffRows.map(({ row, email, previousRole, role, change }) => ({ row, email, previousRole, role, change })),
        updated: updates.map(({ user, diff }) => ({
          email: user.email,
          changes: diff.changes,
          newPropertyAccess: diff.newPropertyAccess,
          ...(diff.newIdentifiers.length > 0 || diff.removedIdentifiers.length > 0
            ? { newIdentifiers: diff.newIdentifiers, removedIdentifiers: diff.removedIdentifiers }
            : {}),
        })),
        skipped: results.skipped,
        failed: results.failed,
        emailsSent,
        propertyUpdateEmailsSent,
      },
    });
    return results;
  });
  return { success: true, message: resultMessage(results), results };
}
