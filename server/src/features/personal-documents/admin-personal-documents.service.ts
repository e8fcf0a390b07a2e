import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  personalDocumentAnswer as personalDocumentAnswerSchema,
  type AdminPersonalDocumentsAnswer,
  type AdminPersonalDocumentsQuery,
  type DeletePersonalDocumentBody,
  type EditPersonalDocumentBody,
  type MessageAnswer,
  type ReplacePersonalDocumentBody,
  type UploadPersonalDocumentBody,
  type PersonalDocument as PersonalDocumentAnswer,
  type PersonalDocumentAnswer as UploadAnswer,
} from '@everest/core/contract';
import { displayName, formatDateTime, periodOf, type DocumentCategory, type Quarter } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import type { UploadedFile } from '../../http/multipart';
import { changedFields, recordAdminAction, type AuditFields } from '../audit/admin-audit';
import type { FileExistence } from '../files/file-existence';
import { enqueueMail } from '../mail/outbox';
import { User } from '../users/user.entity';
import { newDocumentsMail, type PublishedDocument } from '../document-access/document-mail';
import {
  personalDocumentMatch,
  keepDocumentFile,
  storedFileId,
  type DocumentsCall,
} from '../document-access/document-files';
import { publishCorrection, repairCurrentVersion, unchangedMessage } from '../document-access/document-versions';
import { earlierAnswer, holdIdempotencyKey, rememberAnswer } from '../document-access/idempotency';
import { selectPersonalDocuments } from '../document-access/documents.service';
import { PersonalDocument, type IPersonalDocument } from './personal-document.entity';
import { digestLine, publishPersonalDocument } from './personal-document-publishing';

export const adminPersonalDocumentMessages = {
  notFound: 'This document does not exist. It may have been deleted.',
  userNotFound: (email: string) => `User not found: no account uses the e-mail address ${email}.`,
  otherOwner: (owner: string, named: string) =>
    `This document belongs to ${owner}, not ${named}: a file can only replace a document of its own investor. Nothing was replaced.`,
  contentUsed: (email: string, title: string) =>
    `This file is already published for ${email} as "${title}". Choose the corrected file, or delete the other document first.`,
} as const;

// Newest first: the panel shows what was just published on its first page.
const listOrder = 'order by d.uploaded_at desc, d.id desc';

/**
 * One page of personal documents with their owners. `search` keeps those whose title, tags, or
 * owner's e-mail, full name or entity contains it, in any case; `totalCount` counts every match.
 */
export async function listAdminPersonalDocuments(
  em: EntityManager,
  fileExistence: FileExistence,
  query: AdminPersonalDocumentsQuery,
): Promise<AdminPersonalDocumentsAnswer> {
  const where = query.search ? personalDocumentMatch(query.search) : { sql: 'true', params: [] };
  const offset = (query.page - 1) * query.limit;
  const [documents, counted] = await Promise.all([
    selectPersonalDocuments(em, fileExistence, { sql: where.sql, params: [...where.params, query.limit, offset] }, `${listOrder} limit ? offset ?`),
    em.execute<{ count: string }[]>(`select count(*) from user_documents d join users u on u.id = d.user_id where ${where.sql}`, where.params),
  ]);
  return { documents, totalCount: Number(counted[0]?.count ?? 0) };
}

async function documentAnswer(call: DocumentsCall, id: number): Promise<PersonalDocumentAnswer> {
  const [document] = await selectPersonalDocuments(call.em, call.fileExistence, { sql: 'd.id = ?', params: [id] });
  if (!document) throw new HttpError(404, adminPersonalDocumentMessages.notFound);
  return document;
}

/**
 * The year and quarter to file a personal document under (DECISIONS.md): those the form gives,
 * else its date's, else today's in Pasadena (core's periodOf).
 */
function filing(body: UploadPersonalDocumentBody, now: Date) {
  const fromDate = periodOf(body.documentDate ?? null, null, now);
  return { year: body.year ?? fromDate.year, quarter: body.quarter ?? fromDate.quarter };
}

/** A corrected document keeps its filing: the e-mail names it as the investor knows it. */
export async function correctedLine(tx: EntityManager, documentId: number, note: string): Promise<PublishedDocument> {
  const [row] = await tx.execute<{ title: string; document_category: DocumentCategory; quarter: Quarter; year: number }[]>(
    'select title, document_category, quarter, year from user_documents where id = ?',
    [documentId],
  );
  if (!row) throw new HttpError(404, adminPersonalDocumentMessages.notFound);
  return digestLine({ title: row.title, documentCategory: row.document_category, quarter: row.quarter, year: row.year }, note);
}

/** The audit actions whose rows answer a retried upload-user-document under its Idempotency-Key. */
export const uploadPersonalDocumentActions = ['upload-user-document', 'correct'] as const;

/**
 * Publishes a personal document for one user. The owner's row is locked while the same content
 * is looked for, so that two uploads of one file for one investor (a double click, a retried
 * request) publish it once: the second answers the first (DECISIONS.md), sends no e-mail and
 * writes no audit row, since nothing changed. Under an Idempotency-Key, a retry answers the first
 * call's result.
 */
export async function uploadPersonalDocument(
  call: DocumentsCall,
  body: UploadPersonalDocumentBody,
  upload: UploadedFile | null,
  options: { idempotencyKey?: string; now?: Date } = {},
): Promise<UploadAnswer> {
  // In any letter case, as the unique index on lower(email) decides who owns an address.
  const [found] = await call.em.execute<{ id: number }[]>('select id from users where lower(email) = lower(?)', [body.userEmail]);
  if (!found) throw new HttpError(404, adminPersonalDocumentMessages.userNotFound(body.userEmail));
  const file = await keepDocumentFile(upload, call.fileExistence);
  const { year, quarter } = filing(body, options.now ?? new Date());
  const key = options.idempotencyKey;

  return call.em.transactional(async (tx): Promise<UploadAnswer> => {
    if (key) {
      await holdIdempotencyKey(tx, call.actor.id, 'upload-user-document', key);
      const earlier = await earlierAnswer(tx, call.actor.id, key, uploadPersonalDocumentActions);
      if (earlier) return personalDocumentAnswerSchema.parse(earlier);
    }
    const owner = await tx.findOne(User, found.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!owner) throw new HttpError(404, adminPersonalDocumentMessages.userNotFound(body.userEmail));
    // The owner only, and only while they can sign in to read it.
    const notify = body.emailNotification && owner.isActive;
    const fields = {
      title: body.title,
      documentCategory: body.documentCategory,
      description: body.description ?? '',
      documentDate: body.documentDate ?? null,
      tags: body.tags ?? '',
      year,
      quarter,
    };
    const published = await publishPersonalDocument(tx, call, owner, fields, file, {
      action: 'upload-user-document',
      emailNotification: body.emailNotification,
      notified: notify,
      ...(body.uploadType ? { uploadType: body.uploadType } : {}),
      correctionNote: body.correctionNote,
      ...(key ? { idempotencyKey: key } : {}),
    });
    if (!published.already && notify) {
      const line = published.corrected ? await correctedLine(tx, published.id, body.correctionNote) : digestLine(fields);
      enqueueMail(tx, newDocumentsMail(owner.email, displayName(owner), [line], call.portalUrl));
    }

    const document = await documentAnswer({ ...call, em: tx }, published.id);
    if (published.already) {
      return {
        message: `This file was already published for ${owner.email} as "${published.already.title}" on ${formatDateTime(published.already.uploaded_at)}. Nothing new was published.`,
        document,
        alreadyPublished: true,
      };
    }
    const answer: UploadAnswer = published.corrected
      ? {
          message: `"${document.title}" of ${owner.email} was corrected: version ${published.corrected.version} is published.`,
          document,
          alreadyPublished: false,
          corrected: true,
        }
      : { message: `Document "${body.title}" published for ${owner.email}.`, document, alreadyPublished: false };
    if (key) await rememberAnswer(tx, call.actor.id, key, uploadPersonalDocumentActions, answer);
    return answer;
  });
}

function auditedFields(d: IPersonalDocument): AuditFields {
  return {
    title: d.title,
    documentCategory: d.documentCategory,
    description: d.description,
    documentDate: d.documentDate ? String(d.documentDate).slice(0, 10) : null,
    tags: d.tags,
    year: d.year,
    quarter: d.quarter,
  };
}

async function lockedDocument(tx: EntityManager, id: number): Promise<IPersonalDocument> {
  const document = await tx.findOne(PersonalDocument, id, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['user'] });
  if (!document) throw new HttpError(404, adminPersonalDocumentMessages.notFound);
  return document;
}

/**
 * The Edit User Document modal: title and category always, description, date and tags when
 * sent. A new document date files the document under that date's year and quarter, as an
 * upload with that date would have been; clearing the date keeps the filing.
 */
export async function editPersonalDocument(call: DocumentsCall, body: EditPersonalDocumentBody): Promise<UploadAnswer> {
  await call.em.transactional(async (tx) => {
    const document = await lockedDocument(tx, body.documentId);
    const before = auditedFields(document);
    document.title = body.title;
    document.documentCategory = body.documentCategory;
    if (body.description !== undefined) document.description = body.description;
    if (body.tags !== undefined) document.tags = body.tags;
    if (body.documentDate !== undefined && body.documentDate !== before.documentDate) {
      document.documentDate = body.documentDate;
      if (body.documentDate) Object.assign(document, periodOf(body.documentDate, null, new Date()));
    }
    await tx.flush();
    recordAdminAction(tx, call.actor, call.clientAddress, {
      action: 'edit-user-document',
      subject: { type: 'user-document', id: document.id, label: `${document.title} (${document.user.email})` },
      ...changedFields(before, auditedFields(document)),
    });
  });
  const document = await documentAnswer(call, body.documentId);
  return { message: `Document "${document.title}" saved.`, document };
}

/** A file only ever replaces a document of the investor its caller names. */
function refuseOtherOwner(owner: string, named: string | undefined): void {
  if (named !== undefined && named.toLowerCase() !== owner.toLowerCase()) {
    throw new HttpError(409, adminPersonalDocumentMessages.otherOwner(owner, named));
  }
}

/**
 * Puts a new file under an existing personal document, keeping its owner, title and filing, as
 * replace-document does for property documents: when its file exists and the new one differs, a
 * corrected version, e-mailed to its owner with `emailNotification` (while active);
 * when its file was missing, a repair of the current version; the very file it has changes
 * nothing (`unchanged`). Refused (409) when another of the owner's documents holds the same
 * content (one content, one document per investor, as the uploads decide), and when
 * `body.userEmail` names another investor than the owner.
 */
export async function replacePersonalDocument(
  call: DocumentsCall,
  documentId: number,
  body: ReplacePersonalDocumentBody,
  upload: UploadedFile | null,
): Promise<UploadAnswer> {
  const [current] = await call.em.execute<{ sha256: string; email: string }[]>(
    `select f.sha256, u.email from user_documents d join stored_files f on f.id = d.file_id
       join users u on u.id = d.user_id where d.id = ?`,
    [documentId],
  );
  if (!current) throw new HttpError(404, adminPersonalDocumentMessages.notFound);
  // Refused before the file is kept, and again under the row's lock.
  refuseOtherOwner(current.email, body.userEmail);
  // Asked before the new file is kept: the same bytes would make a lost file look present.
  const hadFile = (await call.fileExistence.existing([current.sha256])).has(current.sha256);
  if (hadFile && upload?.sha256 === current.sha256) {
    // The very file it has: no version, no audit row, no e-mail, and the answer says so.
    const document = await documentAnswer(call, documentId);
    return { message: unchangedMessage(document.title), document, unchanged: true };
  }
  const file = await keepDocumentFile(upload, call.fileExistence);
  const corrected = await call.em.transactional(async (tx) => {
    const document = await lockedDocument(tx, documentId);
    refuseOtherOwner(document.user.email, body.userEmail);
    const [twin] = await tx.execute<{ title: string }[]>(
      `select d.title from user_documents d join stored_files f on f.id = d.file_id
        where d.user_id = ? and f.sha256 = ? and d.id <> ? order by d.id limit 1`,
      [document.user.id, file.sha256, documentId],
    );
    if (twin) throw new HttpError(409, adminPersonalDocumentMessages.contentUsed(document.user.email, twin.title));
    const [before] = await tx.execute<{ sha256: string }[]>('select sha256 from stored_files where id = ?', [document.file.id]);
    const fileId = await storedFileId(tx, file);
    const subject = { type: 'user-document', id: documentId, label: `${document.title} (${document.user.email})` } as const;
    if (!hadFile || before?.sha256 === file.sha256) {
      await repairCurrentVersion(tx, 'personal', documentId, { fileId, filename: file.filename });
      recordAdminAction(tx, call.actor, call.clientAddress, {
        action: 'replace-user-document',
        subject,
        before: { filename: document.filename, sha256: before?.sha256 ?? null },
        after: { filename: file.filename, sha256: file.sha256, size: file.size },
      });
      return null;
    }
    const correction = await publishCorrection(tx, 'personal', documentId, { fileId, filename: file.filename }, call.actor, body.note);
    const notify = body.emailNotification && document.user.isActive;
    // Deferred, the correction waits for its batch's digest (notify-documents), which lists it as corrected.
    const deferred = notify && body.notifyLater;
    if (deferred) await tx.execute('update user_documents set notification_pending = true where id = ?', [documentId]);
    else if (notify) {
      enqueueMail(tx, newDocumentsMail(document.user.email, displayName(document.user), [digestLine(document, body.note)], call.portalUrl));
    }
    recordAdminAction(tx, call.actor, call.clientAddress, {
      action: 'correct',
      subject,
      before: correction.before,
      after: {
        userEmail: document.user.email,
        version: correction.version,
        filename: file.filename,
        sha256: file.sha256,
        size: file.size,
        note: body.note,
        emailNotification: body.emailNotification,
        ...(deferred ? { notifyLater: true } : {}),
        notified: notify && !deferred ? 1 : 0,
      },
    });
    return { version: correction.version, notified: notify && !deferred, deferred };
  });
  const document = await documentAnswer(call, documentId);
  if (!corrected) return { message: `The file of "${document.title}" was replaced.`, document };
  return {
    // As replace-document: the message keeps its words; `corrected` and the version say the rest.
    message: `The file of "${document.title}" was replaced.${
      corrected.deferred
        ? ' Its e-mail waits to be sent with the rest of its batch.'
        : corrected.notified
          ? ` ${document.userEmail} was notified by e-mail.`
          : ''
    }`,
    document,
    corrected: true,
  };
}

/** Removes the document from its owner's portal; the file stays in the store (see deleteDocument). */
export async function deletePersonalDocument(call: DocumentsCall, body: DeletePersonalDocumentBody): Promise<MessageAnswer> {
  return call.em.transactional(async (tx) => {
    const document = await lockedDocument(tx, body.documentId);
    recordAdminAction(tx, call.actor, call.clientAddress, {
      action: 'delete-user-document',
      subject: { type: 'user-document', id: document.id, label: `${document.title} (${document.user.email})` },
      before: { ...auditedFields(document), userEmail: document.user.email, filename: document.filename },
    });
    tx.remove(document);
    return { message: `Document "${document.title}" deleted.` };
  });
}
