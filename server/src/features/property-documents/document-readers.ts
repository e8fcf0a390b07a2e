import type { EntityManager } from '@mikro-orm/postgresql';
import { displayName } from '@everest/core/domain';
import { enqueueMail } from '../mail/outbox';
import { newDocumentsMail } from '../document-access/document-mail';
import type { DocumentsCall } from '../document-access/document-files';
import { delegatesToNotify, liveShareParams } from '../document-access/document-policy';

// Who is e-mailed about a property document: the one rule of the upload's own e-mail, of the
// batch digest (notify-documents.service.ts) and of the count asked before an upload.

/** A document's destination: a property of the live list, or the 'General' group. */
export interface PropertyChoice {
  /** null for the 'General' group. */
  id: number | null;
  name: string;
}

/**
 * Who a property document is e-mailed to: every active investor and employee with access to its
 * property, or all of them for 'General' (DECISIONS.md). One rule for the upload, the batch
 * digest and the count asked before an upload (documentRecipients). Parameters: the property's
 * id twice (null for 'General').
 */
export const readerOfProperty = `u.is_active and u.role in ('user', 'everest_employee')
  and (?::int is null or exists (select 1 from property_access pa where pa.user_id = u.id and pa.property_id = ?))`;
/** The same rule joined to a property document `d`. */
export const readerOfDocument = `u.is_active and u.role in ('user', 'everest_employee')
  and (d.property_id is null or exists (select 1 from property_access pa where pa.user_id = u.id and pa.property_id = d.property_id))`;

/** A delegate to tell, with the investor whose document it is. */
export interface DelegateLineRow {
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  entity: string;
  owner_email: string;
  owner_first_name: string;
  owner_last_name: string;
  owner_entity: string;
}
export const delegateColumns = `distinct on (dl.id, d.id) dl.id as user_id, dl.email, dl.first_name, dl.last_name, dl.entity,
  o.email as owner_email, o.first_name as owner_first_name, o.last_name as owner_last_name, o.entity as owner_entity`;
export const sharedBy = (row: DelegateLineRow) =>
  `shared by ${displayName({ firstName: row.owner_first_name, lastName: row.owner_last_name, entity: row.owner_entity }) || row.owner_email}`;

export const peopleNotified = (count: number) => `${count} ${count === 1 ? 'person was' : 'people were'} notified by e-mail.`;

/**
 * Queues one e-mail per recipient for a new or corrected property document: every active investor and
 * employee with access to its property, or all of them for 'General' (DECISIONS.md).
 * Administrators publish; they are not told of their own work. Answers how many were queued.
 */
export async function queueNotifications(
  tx: EntityManager,
  call: DocumentsCall,
  property: PropertyChoice,
  title: string,
  period: string,
  correction?: { note: string },
): Promise<number> {
  const recipients = await tx.execute<{ email: string; first_name: string; last_name: string; entity: string }[]>(
    `select u.email, u.first_name, u.last_name, u.entity from users u where ${readerOfProperty} order by u.id`,
    [property.id, property.id],
  );
  for (const r of recipients) {
    const name = displayName({ firstName: r.first_name, lastName: r.last_name, entity: r.entity });
    const line = { title, context: `${property.name} · ${period}`, ...(correction ? { correction } : {}) };
    enqueueMail(tx, newDocumentsMail(r.email, name, [line], call.portalUrl));
  }
  // Delegates whose share with notify covers it, once each, naming whose it is.
  const delegates = call.allowSharing
    ? await tx.execute<DelegateLineRow[]>(
        `select ${delegateColumns} from (select ?::int as property_id, 0 as id) d ${delegatesToNotify.property} order by dl.id, d.id, o.id`,
        [property.id, ...liveShareParams],
      )
    : [];
  for (const r of delegates) {
    const line = { title, context: `${property.name} · ${period} · ${sharedBy(r)}`, ...(correction ? { correction } : {}) };
    enqueueMail(tx, newDocumentsMail(r.email, displayName({ firstName: r.first_name, lastName: r.last_name, entity: r.entity }), [line], call.portalUrl));
  }
  return recipients.length + delegates.length;
}
