import type { EntityManager } from '@mikro-orm/postgresql';
import type { DocumentVersionsAnswer } from '@everest/core/contract';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import type { FileExistence } from '../files/file-existence';
import { documentPolicy, type LiveShare } from './document-policy';
import type { ReadableFile } from './documents.service';

// Corrected documents: a document's row names its current file; `document_versions`
// keeps every file it has published (version 1 is written by a trigger on insert). A correction
// adds the next version and moves the document to it. What it does not do: mail and audit rows,
// which are the callers', who know what was asked.

export type DocumentKind = 'property' | 'personal';

const tableOf = (kind: DocumentKind) => (kind === 'property' ? 'property_documents' : 'user_documents');

export const documentVersionMessages = {
  notFound: 'This document does not exist. It may have been deleted.',
  versionNotFound: 'This document does not exist or is not available to you.',
} as const;

/** A replace given the very file the document has: nothing is written or sent. */
export const unchangedMessage = (title: string) => `This is the file "${title}" already has: nothing was changed and nobody was e-mailed.`;

export interface CorrectedVersion {
  version: number;
  /** The version it corrects: what the investor had. */
  before: { version: number; filename: string; sha256: string };
}

/**
 * Publishes `fileId` as the next version of a document whose row the caller holds locked, in
 * the caller's transaction. The document's reads are forgotten (decided: a corrected document is
 * 'New' again for its readers, and the read receipts count the corrected version; the audit
 * rows keep every earlier read); that read row's trigger and the document row's own tell every
 * instance to rebuild its lists.
 */
export async function publishCorrection(
  tx: EntityManager,
  kind: DocumentKind,
  documentId: number,
  file: { fileId: number; filename: string },
  actor: SessionUser,
  note: string,
): Promise<CorrectedVersion> {
  const [before] = await tx.execute<{ version: number; filename: string; sha256: string }[]>(
    `select d.version, d.filename, f.sha256 from ${tableOf(kind)} d join stored_files f on f.id = d.file_id where d.id = ?`,
    [documentId],
  );
  if (!before) throw new HttpError(404, documentVersionMessages.notFound);
  const version = before.version + 1;
  // The moment of the correction itself, never before the version it corrects: now() is when the
  // transaction began, which a batch publishing a document and then its correction in one
  // transaction would place before version 1 (stamped by the application when created).
  const [made] = await tx.execute<{ at: Date }[]>(
    'select greatest(clock_timestamp(), max(uploaded_at)) as at from document_versions where document_type = ? and document_id = ?',
    [kind, documentId],
  );
  const at = made?.at ?? new Date();
  await tx.execute(
    `insert into document_versions (document_type, document_id, version, file_id, filename, uploaded_by_id, uploaded_at, note)
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
    [kind, documentId, version, file.fileId, file.filename, actor.id, at, note],
  );
  await tx.execute(`update ${tableOf(kind)} set file_id = ?, filename = ?, version = ?, corrected_at = ? where id = ?`, [
    file.fileId,
    file.filename,
    version,
    at,
    documentId,
  ]);
  await tx.execute('delete from document_reads where document_type = ? and document_id = ?', [kind, documentId]);
  return { version, before };
}

/**
 * Puts a file back under the current version of a document whose file was lost (the spec's
 * 'File Missing' and Replace File): a repair, not a correction, so no version is added and no
 * badge shown. Written even when the bytes are the same: the row's trigger tells every instance
 * to rebuild its lists, whose 'File Missing' is now wrong.
 */
export async function repairCurrentVersion(tx: EntityManager, kind: DocumentKind, documentId: number, file: { fileId: number; filename: string }): Promise<void> {
  await tx.execute(`update ${tableOf(kind)} set file_id = ?, filename = ? where id = ?`, [file.fileId, file.filename, documentId]);
  await tx.execute(
    `update document_versions v set file_id = ?, filename = ? from ${tableOf(kind)} d
      where d.id = ? and v.document_type = ? and v.document_id = d.id and v.version = d.version`,
    [file.fileId, file.filename, documentId, kind],
  );
}

/** Every version of a document, newest first, for the administrators' history. */
export async function listDocumentVersions(
  em: EntityManager,
  fileExistence: FileExistence,
  kind: DocumentKind,
  documentId: number,
): Promise<DocumentVersionsAnswer> {
  const [document] = await em.execute<{ title: string; version: number }[]>(`select title, version from ${tableOf(kind)} where id = ?`, [documentId]);
  if (!document) throw new HttpError(404, documentVersionMessages.notFound);
  const rows = await em.execute<
    { id: number; version: number; filename: string; size: string; content_type: string; sha256: string; uploaded_at: string; uploaded_by: string | null; note: string }[]
  >(
    `select v.id, v.version, v.filename, f.size, f.content_type, f.sha256,
            to_char(v.uploaded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as uploaded_at,
            u.email as uploaded_by, v.note
       from document_versions v
       join stored_files f on f.id = v.file_id
       left join users u on u.id = v.uploaded_by_id
      where v.document_type = ? and v.document_id = ?
      order by v.version desc`,
    [kind, documentId],
  );
  const existing = await fileExistence.existing(rows.map((row) => row.sha256));
  return {
    title: document.title,
    versions: rows.map((row) => ({
      id: row.id,
      version: row.version,
      current: row.version === document.version,
      filename: row.filename,
      fileSize: Number(row.size),
      contentType: row.content_type,
      sha256: row.sha256,
      uploadedAt: row.uploaded_at,
      uploadedBy: row.uploaded_by ?? '',
      note: row.note,
      fileExists: existing.has(row.sha256),
    })),
  };
}

/**
 * One version's file, for the caller: administrators any version; anyone else only the current
 * version of a document the policy lets them read. Everything else is the same 404 as an id that
 * never existed, so an investor learns nothing of earlier versions.
 */
export async function findReadableVersion(
  em: EntityManager,
  user: SessionUser,
  versionId: number,
  share: LiveShare | null = null,
): Promise<ReadableFile & { current: boolean }> {
  // Through a share, the current version only, whatever the caller's role.
  const admin = user.role === 'administrator' && !share;
  const property = documentPolicy.propertyDocuments(user, share);
  const personal = documentPolicy.personalDocuments(user, share);
  const current = admin ? 'true' : 'v.version = d.version';
  const rows = await em.execute<{ document_type: DocumentKind; document_id: number; filename: string; sha256: string; size: string; content_type: string; current: boolean }[]>(
    `select v.document_type, v.document_id, v.filename, f.sha256, f.size, f.content_type, v.version = d.version as current
       from document_versions v join stored_files f on f.id = v.file_id
       join property_documents d on v.document_type = 'property' and d.id = v.document_id
      where v.id = ? and ${current} and ${property.sql}
     union all
     select v.document_type, v.document_id, v.filename, f.sha256, f.size, f.content_type, v.version = d.version as current
       from document_versions v join stored_files f on f.id = v.file_id
       join user_documents d on v.document_type = 'personal' and d.id = v.document_id
      where v.id = ? and ${current} and ${personal.sql}`,
    [versionId, ...property.params, versionId, ...personal.params],
  );
  const row = rows[0];
  if (!row) throw new HttpError(404, documentVersionMessages.versionNotFound);
  return {
    documentId: row.document_id,
    documentType: row.document_type,
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    contentType: row.content_type,
    current: row.current,
  };
}
