import {
  type NotifyDocumentsAnswer,
  type NotifyDocumentsBody,
} from '@everest/core/contract';
import { defaultPropertyGroup, displayName, type DocumentCategory, type Quarter } from '@everest/core/domain';
import { recordAdminAction } from '../audit/admin-audit';
import { enqueueMail } from '../mail/outbox';
import { digestLine } from '../personal-documents/personal-document-publishing';
import { newDocumentsMail, type PublishedDocument } from '../document-access/document-mail';
import type { DocumentsCall } from '../document-access/document-files';
import { delegatesToNotify, liveShareParams } from '../document-access/document-policy';
import { adminDocumentMessages } from './admin-documents.service';
import { delegateColumns, peopleNotified, readerOfDocument, sharedBy, type DelegateLineRow } from './document-readers';

// The batch digest: what a sync or a folder upload published with notifyLater, announced in one
// e-mail per reader, property and personal documents together.

interface DigestLineRow {
  user_id: number;
  document_id: number;
  email: string;
  first_name: string;
  last_name: string;
  entity: string;
  title: string;
  context: string;
  year: number;
  quarter: Quarter;
  /** A personal document's correction waiting with the batch: the note of its current version. */
  correction_note: string | null;
}

/**
 * Announces the documents of a batch uploaded with notifyLater: one digest per active investor
 * or employee, listing the batch's documents they can read (the rule of queueNotifications), and
 * the batch's personal documents (bulk-upload-user-documents' notifyLater) to their
 * owners, so that a quarter folder's two halves reach each reader as one e-mail. The documents
 * are taken by one UPDATE of their pending flag per table, in the transaction that queues the
 * e-mails: a retried or concurrent call finds them taken (PostgreSQL re-checks the condition on
 * rows another transaction changed) and sends nothing twice; a rollback leaves them pending.
 */
export async function notifyDocuments(call: DocumentsCall, body: NotifyDocumentsBody): Promise<NotifyDocumentsAnswer> {
  return call.em.transactional(async (tx) => {
    const take = async (table: 'property_documents' | 'user_documents', ids: readonly number[]) => {
      if (ids.length === 0) return [];
      const taken = await tx.execute<{ id: number }[]>(
        `update ${table} set notification_pending = false
          where notification_pending and id in (select jsonb_array_elements_text(?::jsonb)::int)
          returning id`,
        [JSON.stringify([...new Set(ids)])],
      );
      return taken.map((d) => d.id).sort((a, b) => a - b);
    };
    const documentIds = await take('property_documents', body.documentIds);
    const userDocumentIds = await take('user_documents', body.userDocumentIds);
    if (documentIds.length + userDocumentIds.length === 0) {
      return { message: adminDocumentMessages.nothingToNotify, documentIds, userDocumentIds, notified: 0, corrected: 0 };
    }

    const propertyLines = documentIds.length
      ? await tx.execute<DigestLineRow[]>(
          `select u.id as user_id, d.id as document_id, u.email, u.first_name, u.last_name, u.entity,
                  d.title, coalesce(p.name, ?) as context, d.year, d.quarter,
                  case when d.version > 1 then v.note end as correction_note
             from property_documents d
             left join properties p on p.id = d.property_id
             left join document_versions v on v.document_type = 'property' and v.document_id = d.id and v.version = d.version
             join users u on ${readerOfDocument}
            where d.id in (select jsonb_array_elements_text(?::jsonb)::int)
            order by u.id, d.year desc, d.quarter desc, lower(d.title), d.id`,
          [defaultPropertyGroup, JSON.stringify(documentIds)],
        )
      : [];
    const personalLines = userDocumentIds.length
      ? await tx.execute<(DigestLineRow & { document_category: DocumentCategory })[]>(
          `select u.id as user_id, d.id as document_id, u.email, u.first_name, u.last_name, u.entity,
                  d.title, d.document_category, '' as context, d.year, d.quarter,
                  case when d.version > 1 then v.note end as correction_note
             from user_documents d
             join users u on u.id = d.user_id and u.is_active
             left join document_versions v on v.document_type = 'personal' and v.document_id = d.id and v.version = d.version
            where d.id in (select jsonb_array_elements_text(?::jsonb)::int)
            order by u.id, d.year desc, d.quarter desc, lower(d.title), d.id`,
          [JSON.stringify(userDocumentIds)],
        )
      : [];

    const digests = new Map<number, { email: string; name: string; documents: PublishedDocument[] }>();
    const add = (line: DigestLineRow, document: PublishedDocument) => {
      const digest = digests.get(line.user_id) ?? {
        email: line.email,
        name: displayName({ firstName: line.first_name, lastName: line.last_name, entity: line.entity }),
        documents: [],
      };
      digest.documents.push(document);
      digests.set(line.user_id, digest);
    };
    // A property document announced after its correction (replace-document's notifyLater) says
    // so, with its reason, as replace-document's own e-mail does.
    const correctionOf = (line: DigestLineRow) => (line.correction_note === null ? {} : { correction: { note: line.correction_note } });
    for (const line of propertyLines) add(line, { title: line.title, context: `${line.context} · ${line.quarter} ${line.year}`, ...correctionOf(line) });
    for (const line of personalLines) add(line, digestLine({ ...line, documentCategory: line.document_category }, line.correction_note));
    // Delegates whose share with notify covers a document, in the same digest per person.
    if (call.allowSharing) {
      const batch = (ids: number[]) => JSON.stringify(ids);
      const delegateProperty = documentIds.length
        ? await tx.execute<(DigestLineRow & DelegateLineRow)[]>(
            `select ${delegateColumns}, d.id as document_id, d.title, coalesce(p.name, ?) as context, d.year, d.quarter,
                    case when d.version > 1 then v.note end as correction_note
               from property_documents d left join properties p on p.id = d.property_id
               left join document_versions v on v.document_type = 'property' and v.document_id = d.id and v.version = d.version
               ${delegatesToNotify.property}
              where d.id in (select jsonb_array_elements_text(?::jsonb)::int)
              order by dl.id, d.id, o.id`,
            [defaultPropertyGroup, ...liveShareParams, batch(documentIds)],
          )
        : [];
      for (const line of delegateProperty) {
        add(line, { title: line.title, context: `${line.context} · ${line.quarter} ${line.year} · ${sharedBy(line)}`, ...correctionOf(line) });
      }
      const delegatePersonal = userDocumentIds.length
        ? await tx.execute<(DigestLineRow & DelegateLineRow & { document_category: DocumentCategory })[]>(
            `select ${delegateColumns}, d.id as document_id, d.title, d.document_category, '' as context, d.year, d.quarter,
                    case when d.version > 1 then v.note end as correction_note
               from user_documents d
               left join document_versions v on v.document_type = 'personal' and v.document_id = d.id and v.version = d.version
               ${delegatesToNotify.personal}
              where d.id in (select jsonb_array_elements_text(?::jsonb)::int)
              order by dl.id, d.id, o.id`,
            [...liveShareParams, batch(userDocumentIds)],
          )
        : [];
      for (const line of delegatePersonal) {
        const own = digestLine({ ...line, documentCategory: line.document_category }, line.correction_note);
        add(line, { ...own, context: `${own.context} · ${sharedBy(line)}` });
      }
    }
    for (const digest of digests.values()) enqueueMail(tx, newDocumentsMail(digest.email, digest.name, digest.documents, call.portalUrl));

    const announced = documentIds.length + userDocumentIds.length;
    recordAdminAction(tx, call.actor, call.clientAddress, {
      action: 'notify-documents',
      subject: { type: 'document', id: null, label: `E-mail for ${announced} document(s)` },
      after: { documentIds, ...(userDocumentIds.length ? { userDocumentIds } : {}), notified: digests.size },
    });
    const corrected = new Set([
      ...propertyLines.filter((l) => l.correction_note !== null).map((l) => `property:${l.document_id}`),
      ...personalLines.filter((l) => l.correction_note !== null).map((l) => `personal:${l.document_id}`),
    ]).size;
    return {
      message: `${announced} document(s) announced. ${peopleNotified(digests.size)}`,
      documentIds,
      userDocumentIds,
      notified: digests.size,
      corrected,
    };
  });
}
