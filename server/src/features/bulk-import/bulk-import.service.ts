import { randomBytes } from 'node:crypto';
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
  displayName,
  importStaffRow,
  staffImportMessages,
  staffRowsToConfirm,
  unconfirmedStaffRows,
  validateBulkImportRows,
  type ImportExistingUser,
  type ImportRowChanges,
  type ValidImportRow,
} from '@everest/core/domain';
import type { Config } from '../../config';
import { executeBound } from '../../db/bound-query';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import { recordLargeAdminAction } from '../audit/admin-audit';
import { welcomeMail } from '../auth/auth-mail';
import { hashResetToken, welcomeLinkLifetimeMs } from '../auth/password-links';
import { enqueueMailBatch, type BatchRecipient, type MailValue } from '../mail/outbox';
import { escapeHtml, escapeLines } from '../mail/templates';
import { adminUserMessages, type UserAccountRow } from '../users/admin-users.service';
import { propertyAccessMail } from './bulk-import-mail';

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
}

interface ExistingUser extends ImportExistingUser {
  id: number;
  email: string;
  isActive: boolean;
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
    `select u.id, u.email, u.first_name, u.last_name, u.entity, u.street_address, u.city, u.state, u.zip_code, u.role, u.is_active,
            array(select p.name from property_access a join properties p on p.id = a.property_id where a.user_id = u.id) as property_access
       from users u
      where u.email in (select jsonb_array_elements_text(?::jsonb))
      ${lock ? 'for update of u' : ''}`,
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
      },
    ]),
  );
}

interface ImportUpdate {
  row: ValidImportRow;
  user: ExistingUser;
  diff: ImportRowChanges;
}

/** What the rows would do: the preview shows it, the import applies it. */
interface ImportPlan {
  errors: ImportRowError[];
  newRows: ValidImportRow[];
  /** Existing users the rows would change (real changes only). */
  updates: ImportUpdate[];
  /** E-mails of valid rows whose user exists, changed or not. */
  duplicates: string[];
  /** Rows that create a staff account or change a role (issue 33), in file order. */
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

/** The dry run: what importing these rows would create and change, and the rows it would skip. */
export async function previewBulkImport(em: EntityManager, config: Config, body: PreviewBulkImportBody): Promise<PreviewBulkImportAnswer> {
  const { valid, errors } = await checkedRows(em, body);
  const existing = await existingUsers(em, valid.map((row) => row.email), false);
  const plan = planImport(valid, errors, existing, config);
  const preview: ImportPreview = {
    newUsers: plan.newRows.map((row) => ({
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      entity: row.entity,
      role: row.role,
      propertyAccess: row.propertyAccess,
    })),
    existingUsers: plan.updates.map(({ user, diff }) => ({
      email: user.email,
      hasChanges: true,
      changes: diff.changes,
      newPropertyAccess: diff.newPropertyAccess,
    })),
    errors: plan.errors,
    staffRows: plan.staffRows,
  };
  return { success: true, preview };
}

const welcomeFields = ['name', 'link', 'to'] as const;
type WelcomeField = (typeof welcomeFields)[number];
const propertyMailFields = ['name', 'properties'] as const;
type PropertyMailField = (typeof propertyMailFields)[number];

/** A value shown inline (a greeting, a link): escaped as the templates escape it. */
const htmlValue = (text: string): MailValue => ({ text, html: escapeHtml(text) });
/** A value that is a whole paragraph: its line breaks become <br>. */
const paragraphValue = (text: string): MailValue => ({ text, html: escapeLines(text) });

/**
 * A single-use set-password link for each row, 32 random bytes as auth.service makes them (one
 * draw from the CSPRNG for the batch): the token goes into the e-mail, its SHA-256 into the table.
 */
function withPasswordLinks<T>(config: Config, rows: readonly T[]): { row: T; tokenHash: string; url: string }[] {
  const random = randomBytes(32 * rows.length);
  return rows.map((row, i) => {
    const token = random.subarray(32 * i, 32 * (i + 1)).toString('base64url');
    return { row, tokenHash: hashResetToken(token), url: `${config.publicUrl}/investor-services?resetToken=${encodeURIComponent(token)}` };
  });
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
    const plan = planImport(valid, errors, existing, config);

    if (body.duplicateHandling === 'fail' && plan.duplicates.length > 0) {
      throw new HttpError(409, bulkImportMessages.duplicatesFound(plan.duplicates.length, plan.duplicates.slice(0, 3)));
    }
    // Issue 33: every staff row this import would write must be confirmed by e-mail and role,
    // checked before anything is written or e-mailed.
    const staffRows = staffRowsToConfirm(plan.staffRows, body.duplicateHandling);
    const unconfirmed = unconfirmedStaffRows(staffRows, body.confirmedStaffRows);
    if (unconfirmed.length > 0) throw new HttpError(409, staffImportMessages.notConfirmed(unconfirmed));
    const updates = body.duplicateHandling === 'update' ? plan.updates : [];
    await refuseLosingLastAdministrator(tx, updates);

    // New users: no password (an empty hash never verifies); a concurrent import that created the
    // same e-mail first wins, and its rows here count as skipped.
    const inserted = plan.newRows.length
      ? await executeBound<{ id: number; email: string }>(
          tx,
          `insert into users (email, password_hash, first_name, last_name, entity, street_address, city, state, zip_code, role, created_at, updated_at)
           select r.email, '', r.first_name, r.last_name, r.entity, r.street_address, r.city, r.state, r.zip_code, r.role, now(), now()
             from jsonb_to_recordset(?::jsonb)
               as r(email text, first_name text, last_name text, entity text, street_address text, city text, state text, zip_code text, role text)
           on conflict (email) do nothing
           returning id, email`,
          [
            JSON.stringify(
              plan.newRows.map((r) => ({
                email: r.email,
                first_name: r.firstName,
                last_name: r.lastName,
                entity: r.entity,
                street_address: r.streetAddress,
                city: r.city,
                state: r.state,
                zip_code: r.zipCode,
                role: r.role,
              })),
            ),
          ],
        )
      : [];
    const newIds = new Map(inserted.map((row) => [row.email, row.id]));
    const created = plan.newRows.filter((row) => newIds.has(row.email));

    // Changed fields only (an absent key is null: coalesce keeps the stored value). A new role
    // ends the user's sessions, as in edit-user.
    const fieldUpdates = updates.filter((u) => Object.keys(u.diff.changes).length > 0);
    if (fieldUpdates.length > 0) {
      await executeBound(
        tx,
        `update users u set
            first_name = coalesce(r.first_name, u.first_name), last_name = coalesce(r.last_name, u.last_name),
            entity = coalesce(r.entity, u.entity), street_address = coalesce(r.street_address, u.street_address),
            city = coalesce(r.city, u.city), state = coalesce(r.state, u.state), zip_code = coalesce(r.zip_code, u.zip_code),
            role = coalesce(r.role, u.role),
            token_version = u.token_version + case when r.role is not null and r.role <> u.role then 1 else 0 end,
            updated_at = now()
           from jsonb_to_recordset(?::jsonb)
             as r(id int, first_name text, last_name text, entity text, street_address text, city text, state text, zip_code text, role text)
          where u.id = r.id`,
        [
          JSON.stringify(
            fieldUpdates.map(({ user, diff: { changes } }) => ({
              id: user.id,
              first_name: changes.firstName?.to,
              last_name: changes.lastName?.to,
              entity: changes.entity?.to,
              street_address: changes.streetAddress?.to,
              city: changes.city?.to,
              state: changes.state?.to,
              zip_code: changes.zipCode?.to,
              role: changes.role?.to,
            })),
          ),
        ],
      );
    }

    // Users created by this statement's transaction cannot hold access yet: a plain insert. Existing
    // users may have been granted the same property meanwhile (assign-property): those skip it.
    const grant = async (rows: { user_id: number; property_id: number }[], onConflict: string) => {
      if (rows.length === 0) return;
      await executeBound(
        tx,
        `insert into property_access (user_id, property_id, created_at)
         select r.user_id, r.property_id, now() from jsonb_to_recordset(?::jsonb) as r(user_id int, property_id int) ${onConflict}`,
        [JSON.stringify(rows)],
      );
    };
    await grant(
      created.flatMap((row) => row.propertyAccess.map((name) => ({ user_id: newIds.get(row.email) ?? 0, property_id: properties.get(name) ?? 0 }))),
      '',
    );
    await grant(
      updates.flatMap(({ user, diff }) => diff.newPropertyAccess.map((name) => ({ user_id: user.id, property_id: properties.get(name) ?? 0 }))),
      'on conflict (user_id, property_id) do nothing',
    );

    let emailsSent = 0;
    if (body.sendWelcomeEmails && created.length > 0) {
      const validDays = welcomeLinkLifetimeMs / 86_400_000;
      const tokens: { user_id: number; token_hash: string }[] = [];
      const recipients: BatchRecipient<WelcomeField>[] = [];
      for (const { row, ...link } of withPasswordLinks(config, created)) {
        tokens.push({ user_id: newIds.get(row.email) ?? 0, token_hash: link.tokenHash });
        recipients.push({
          to: row.email,
          values: { name: htmlValue(displayName(row)), link: htmlValue(link.url), to: htmlValue(row.email) },
        });
      }
      await executeBound(
        tx,
        `insert into password_reset_tokens (user_id, token_hash, expires_at, created_at)
         select r.user_id, r.token_hash, ?::timestamptz, now() from jsonb_to_recordset(?::jsonb) as r(user_id int, token_hash text)`,
        [new Date(Date.now() + welcomeLinkLifetimeMs).toISOString(), JSON.stringify(tokens)],
      );
      await enqueueMailBatch(tx, welcomeFields, (v) => welcomeMail(v.to, v.name, v.link, validDays), recipients);
      emailsSent = created.length;
    }
    let propertyUpdateEmailsSent = 0;
    if (body.sendUpdateEmails) {
      const portalUrl = `${config.publicUrl}/investor-services`;
      // The wording differs for one property and several: one batch each.
      const batches = { one: [] as BatchRecipient<PropertyMailField>[], many: [] as BatchRecipient<PropertyMailField>[] };
      for (const { user, diff } of updates) {
        // A deactivated account cannot sign in to see them: no e-mail to disappoint.
        if (diff.newPropertyAccess.length === 0 || !user.isActive) continue;
        const name = displayName({ ...user, ...Object.fromEntries(Object.entries(diff.changes).map(([k, c]) => [k, c.to])) });
        batches[diff.newPropertyAccess.length === 1 ? 'one' : 'many'].push({
          to: user.email,
          values: { name: htmlValue(name), properties: paragraphValue(diff.newPropertyAccess.join('\n')) },
        });
      }
      for (const [kind, recipients] of Object.entries(batches)) {
        const sample = kind === 'one' ? ['x'] : ['x', 'y'];
        await enqueueMailBatch(
          tx,
          propertyMailFields,
          (v) => propertyAccessMail('', v.name, sample, portalUrl, v.properties),
          recipients,
        );
        propertyUpdateEmailsSent += recipients.length;
      }
    }

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
        // Issue 33: the staff accounts created or roles changed, each confirmed in the request.
        staffRows: staffRows.map(({ row, email, previousRole, role, change }) => ({ row, email, previousRole, role, change })),
        updated: updates.map(({ user, diff }) => ({ email: user.email, changes: diff.changes, newPropertyAccess: diff.newPropertyAccess })),
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
