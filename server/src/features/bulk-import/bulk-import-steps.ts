import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { displayName, type ImportExistingUser, type ImportRowChanges, type ValidImportRow } from '@everest/core/domain';
import type { Config } from '../../config';
import { executeBound } from '../../db/bound-query';
import { welcomeMail } from '../auth/auth-mail';
import { hashResetToken, welcomeLinkLifetimeMs } from '../auth/password-links';
import { enqueueMailBatch, type BatchRecipient, type MailValue } from '../mail/outbox';
import { escapeHtml, escapeLines } from '../mail/templates';
import { propertyAccessMail } from './bulk-import-mail';

// The import's writing steps, in the order bulkImportUsers runs them inside its one transaction:
// new users, changed fields, property access, welcome e-mails, property update e-mails. Each is a
// handful of set-based statements, whatever the number of rows.

/** An existing account as the import reads it: what it diffs, and what its steps write. */
export interface ExistingUser extends ImportExistingUser {
  id: number;
  email: string;
  isActive: boolean;
}

export interface ImportUpdate {
  row: ValidImportRow;
  user: ExistingUser;
  diff: ImportRowChanges;
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

/** Creates the new users; the rows a concurrent import created first are left out of `created`. */
export async function insertNewUsers(tx: EntityManager, newRows: readonly ValidImportRow[]): Promise<{ created: ValidImportRow[]; newIds: Map<string, number> }> {
  // New users: no password (an empty hash never verifies); a concurrent import that created the
  // same e-mail first wins, and its rows here count as skipped.
  const inserted = newRows.length
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
            newRows.map((r) => ({
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
  const created = newRows.filter((row) => newIds.has(row.email));
  return { created, newIds };
}

/** Writes the updates' changed fields. */
export async function updateChangedFields(tx: EntityManager, updates: readonly ImportUpdate[]): Promise<void> {
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
}

/** Grants the new users their properties, and the updated users the properties they gain. */
export async function grantPropertyAccess(
  tx: EntityManager,
  properties: ReadonlyMap<string, number>,
  created: readonly ValidImportRow[],
  newIds: ReadonlyMap<string, number>,
  updates: readonly ImportUpdate[],
): Promise<void> {
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
}

/** Queues a welcome e-mail with a set-password link for each new user; answers how many. */
export async function queueWelcomeEmails(
  tx: EntityManager,
  config: Config,
  created: readonly ValidImportRow[],
  newIds: ReadonlyMap<string, number>,
): Promise<number> {
  if (created.length === 0) return 0;
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
  return created.length;
}

/** Queues an e-mail to each active updated user who gains properties; answers how many. */
export async function queuePropertyUpdateEmails(tx: EntityManager, config: Config, updates: readonly ImportUpdate[]): Promise<number> {
  let propertyUpdateEmailsSent = 0;
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
  return propertyUpdateEmailsSent;
}
