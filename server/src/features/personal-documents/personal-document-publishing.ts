import type { EntityManager } from '@mikro-orm/postgresql';
import { documentCategoryLabels, isSameDocument, type DocumentCategory, type Quarter } from '@everest/core/domain';
import { recordAdminAction } from '../audit/admin-audit';
import type { IUser } from '../users/user.entity';
import type { PublishedDocument } from '../document-access/document-mail';
import { storedFileId, type DocumentsCall, type KeptDocumentFile } from '../document-access/document-files';
import { publishCorrection } from '../document-access/document-versions';
import { PersonalDocument } from './personal-document.entity';

// Publishing one personal document, as the single upload and every row of a bulk batch do it:
// the same content for the same owner once, a document the owner already has corrected, and
// the line the digest e-mail lists it with.

/** A personal document's fields, cleaned and filed, as the single and the bulk upload publish it. */
export interface NewPersonalDocument {
  title: string;
  documentCategory: DocumentCategory;
  description: string;
  documentDate: string | null;
  tags: string;
  year: number;
  quarter: Quarter;
}

/** How a digest e-mail lists a new personal document, or a corrected one with its reason (`correctionNote` not null). */
export function digestLine(
  document: Pick<NewPersonalDocument, 'title' | 'documentCategory' | 'quarter' | 'year'>,
  correctionNote: string | null = null,
): PublishedDocument {
  return {
    title: document.title,
    context: `${documentCategoryLabels[document.documentCategory]} · ${document.quarter} ${document.year}`,
    ...(correctionNote === null ? {} : { correction: { note: correctionNote } }),
  };
}

export interface PublishOutcome {
  id: number;
  /** The document that already had this content for this owner; nothing was written. */
  already: { id: number; title: string; uploaded_at: Date } | null;
  /** Set when the owner had this document (core's isSameDocument): the file is its new version. */
  corrected: { version: number; firstPublishedAt: string } | null;
  /** The period the document is filed under: a corrected one keeps its own. */
  filed: { year: number; quarter: Quarter };
}

/**
 * Writes one personal document and its audit row inside the caller's transaction, which holds
 * the owner's row locked: the same content for the same owner is looked for under that lock, so
 * a double click or a re-sent batch publishes once. Mail is the caller's, who knows whether this
 * is one document or a batch's digest.
 */
export async function publishPersonalDocument(
  tx: EntityManager,
  call: DocumentsCall,
  owner: IUser,
  fields: NewPersonalDocument,
  file: KeptDocumentFile,
  audit: {
    action: string;
    emailNotification: boolean;
    notified: boolean;
    uploadType?: string;
    row?: number;
    correctionNote?: string;
    idempotencyKey?: string;
  },
): Promise<PublishOutcome> {
  const [existing] = await tx.execute<{ id: number; title: string; uploaded_at: Date; year: number; quarter: Quarter }[]>(
    `select d.id, d.title, d.uploaded_at, d.year, d.quarter from user_documents d join stored_files f on f.id = d.file_id
      where d.user_id = ? and f.sha256 = ? order by d.id limit 1`,
    [owner.id, file.sha256],
  );
  if (existing) return { id: existing.id, already: existing, corrected: null, filed: { year: existing.year, quarter: existing.quarter } };

  // A document the owner already has (core's isSameDocument: the same title in any letter case,
  // category and period): a corrected file of it, not a second document. Its other fields stay
  // as published. The same title in another quarter is a new document.
  const namesakes = await tx.execute<{ id: number; title: string; document_category: DocumentCategory; year: number; quarter: Quarter; uploaded_at: string }[]>(
    `select id, title, document_category, year, quarter, to_char(uploaded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as uploaded_at
       from user_documents where user_id = ? and lower(title) = lower(?) order by id`,
    [owner.id, fields.title],
  );
  const namesake = namesakes.find((d) =>
    isSameDocument({ title: d.title, category: d.document_category, year: d.year, quarter: d.quarter }, { ...fields, category: fields.documentCategory }),
  );
  if (namesake) {
    const note = audit.correctionNote ?? '';
    const corrected = await publishCorrection(tx, 'personal', namesake.id, { fileId: await storedFileId(tx, file), filename: file.filename }, call.actor, note);
    recordAdminAction(tx, call.actor, call.clientAddress, {
      action: 'correct',
      subject: { type: 'user-document', id: namesake.id, label: `${namesake.title} (${owner.email})` },
      before: corrected.before,
      after: {
        userEmail: owner.email,
        version: corrected.version,
        filename: file.filename,
        sha256: file.sha256,
        size: file.size,
        note,
        through: audit.action,
        emailNotification: audit.emailNotification,
        notified: audit.notified ? 1 : 0,
        ...(audit.row ? { manifestRow: audit.row } : {}),
        ...(audit.idempotencyKey ? { idempotencyKey: audit.idempotencyKey } : {}),
      },
    });
    return {
      id: namesake.id,
      already: null,
      corrected: { version: corrected.version, firstPublishedAt: namesake.uploaded_at },
      filed: { year: namesake.year, quarter: namesake.quarter },
    };
  }

  const created = tx.create(PersonalDocument, {
    user: owner,
    ...fields,
    filename: file.filename,
    file: await storedFileId(tx, file),
    uploadedBy: call.actor.id,
  });
  await tx.flush();
  recordAdminAction(tx, call.actor, call.clientAddress, {
    action: audit.action,
    subject: { type: 'user-document', id: created.id, label: `${fields.title} (${owner.email})` },
    after: {
      userEmail: owner.email,
      title: fields.title,
      documentCategory: fields.documentCategory,
      year: fields.year,
      quarter: fields.quarter,
      filename: file.filename,
      sha256: file.sha256,
      size: file.size,
      emailNotification: audit.emailNotification,
      notified: audit.notified ? 1 : 0,
      ...(audit.uploadType ? { uploadType: audit.uploadType } : {}),
      ...(audit.row ? { manifestRow: audit.row } : {}),
      ...(audit.idempotencyKey ? { idempotencyKey: audit.idempotencyKey } : {}),
    },
  });
  return { id: created.id, already: null, corrected: null, filed: { year: fields.year, quarter: fields.quarter } };
}
