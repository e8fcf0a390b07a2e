import type { EntityManager } from '@mikro-orm/postgresql';
import type { SessionUser } from '../../http/state';
import { executeBound } from '../../db/bound-query';
import { AuditEvent } from './audit-event.entity';

/** What an administrator's write acted on. `label` keeps a name or e-mail readable after a delete. */
export interface AuditSubject {
  type: 'user' | 'property' | 'document' | 'user-document' | 'import' | 'share';
  id: number | null;
  label?: string;
}

export type AuditFields = Record<string, unknown>;

export interface AdminAction {
  /** The route's name in the spec: 'create-user', 'edit-user', 'delete-property', … */
  action: string;
  subject: AuditSubject;
  /** For edits, only the fields that changed, as they were and as they are. */
  before?: AuditFields;
  after?: AuditFields;
}

/** Fields never written to the audit table, whatever a caller passes. */
const secretFields = new Set(['passwordHash', 'password', 'tokenVersion', 'token', 'tokenHash']);

/**
 * Records an administrator's write (or an investor's share and its revocation) in the caller's unit of work, so that the row commits or
 * rolls back with the change itself: an audit row never claims a change that did not happen,
 * and no change escapes its row.
 */
export function recordAdminAction(em: EntityManager, actor: SessionUser, clientAddress: string, entry: AdminAction): void {
  em.create(AuditEvent, { user: actor.id, clientAddress, ...auditColumns(actor, entry) });
}

/**
 * The same row written at once with a bound parameter, for an action whose details are large
 * (a bulk import lists thousands of users): the unit of work would quote the JSON into the SQL
 * text, which for a megabyte costs more than the import's own statements. Same transaction rule.
 */
export async function recordLargeAdminAction(em: EntityManager, actor: SessionUser, clientAddress: string, entry: AdminAction): Promise<void> {
  const columns = auditColumns(actor, entry);
  await executeBound(
    em,
    `insert into audit_events (user_id, action, document_type, document_id, client_address, details, created_at)
     values (?, ?, ?, ?, ?, ?::jsonb, now())`,
    [actor.id, columns.action, columns.documentType, columns.documentId, clientAddress, JSON.stringify(columns.details)],
  );
}

function auditColumns(actor: SessionUser, entry: AdminAction) {
  return {
    action: entry.action,
    documentType: entry.subject.type === 'document' ? 'property' : entry.subject.type === 'user-document' ? 'personal' : null,
    documentId: entry.subject.type === 'document' || entry.subject.type === 'user-document' ? entry.subject.id : null,
    details: {
      actorEmail: actor.email,
      subject: entry.subject,
      ...(entry.before ? { before: withoutSecrets(entry.before) } : {}),
      ...(entry.after ? { after: withoutSecrets(entry.after) } : {}),
    },
  };
}

/** The fields of `after` whose values differ from `before`, each side holding only those. */
export function changedFields(before: AuditFields, after: AuditFields): { before: AuditFields; after: AuditFields } {
  const changed = { before: {} as AuditFields, after: {} as AuditFields };
  for (const key of Object.keys(after)) {
    if (secretFields.has(key)) continue;
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    changed.before[key] = before[key];
    changed.after[key] = after[key];
  }
  return changed;
}

function withoutSecrets(fields: AuditFields): AuditFields {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !secretFields.has(key)));
}
