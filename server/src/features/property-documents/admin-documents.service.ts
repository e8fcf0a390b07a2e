import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  documentAnswer as documentAnswerSchema,
  type AdminDocumentsAnswer,
  type DeleteDocumentBody,
  type DocumentAnswer,
  type DocumentRecipientsAnswer,
  type MessageAnswer,
  type PropertyDocument as PropertyDocumentAnswer,
  type ReplaceDocumentBody,
  type UpdateDocumentBody,
  type UploadDocumentBody,
} from '@everest/core/contract';
import { defaultPropertyGroup, formatDate, isSameDocument, type Quarter } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import type { UploadedFile } from '../../http/multipart';
import { changedFields, recordAdminAction, type AuditFields } from '../audit/admin-audit';
import type { FileExistence } from '../files/file-existence';
import { keepDocumentFile, storedFileId, type DocumentsCall } from '../document-access/document-files';
import { delegatesToNotify, liveShareParams } from '../document-access/document-policy';
import { publishCorrection, repairCurrentVersion, unchangedMessage } from '../document-access/document-versions';
import { earlierAnswer, holdIdempotencyKey, rememberAnswer } from '../document-access/idempotency';
import { selectPropertyDocuments } from '../document-access/documents.service';
import { Property } from '../properties/property.entity';
import { PropertyDocument, type IPropertyDocument } from './property-document.entity';
import { peopleNotified, queueNotifications, readerOfProperty, type PropertyChoice } from './document-readers';

export const adminDocumentMessages = {
  notFound: 'This document does not exist. It may have been deleted.',
  nothingToNotify:
    'Nothing was sent: these documents were announced already, or were not uploaded to be announced later.',
  alreadyPublished: (property: string, document: { title: string; year: number; quarter: Quarter }) =>
    `This file was already published for ${property} as "${document.title}" (${document.quarter} ${document.year}). Nothing new was published and nobody was e-mailed.`,
  otherProperty: (filedUnder: string, named: string) =>
    `This document is filed under ${filedUnder}, not ${named}: a file can only replace a document of its own property. Nothing was replaced.`,
  contentUsed: (property: string, title: string) =>
    `This file is already published for ${property} as "${title}". Choose the corrected file, or delete the other document first.`,
  /** An upload of a title and period the property has: the file became that document's next version. */
  correctedOnUpload: (title: string, property: string, period: string, firstPublished: string) =>
    `${property} already has "${title}" for ${period} (first published ${firstPublished}): this file was published as its corrected version.`,
  unknownProperty: (name: string) =>
    `There is no property named "${name}". Please choose one from the list, or '${defaultPropertyGroup}' for a document of no property.`,
} as const;

// The panel's order: newest year first, Q4 before Q1 (the enum's text sorts as its order), then title.
const listOrder = 'order by d.year desc, d.quarter desc, lower(d.title), d.id';

/** Every property document, in the panel's order; the panel searches and pages. */
export async function listAdminDocuments(em: EntityManager, fileExistence: FileExistence): Promise<AdminDocumentsAnswer> {
  return { documents: await selectPropertyDocuments(em, fileExistence, { sql: 'true', params: [] }, listOrder) };
}

async function documentAnswer(call: DocumentsCall, id: number): Promise<PropertyDocumentAnswer> {
  const [document] = await selectPropertyDocuments(call.em, call.fileExistence, { sql: 'd.id = ?', params: [id] });
  if (!document) throw new HttpError(404, adminDocumentMessages.notFound);
  return document;
}

/** A property of the live list by name in any letter case, or 'General' (DECISIONS.md). */
async function propertyByName(em: EntityManager, name: string): Promise<PropertyChoice> {
  if (name.toLowerCase() === defaultPropertyGroup.toLowerCase()) return { id: null, name: defaultPropertyGroup };
  const [row] = await em.execute<{ id: number; name: string }[]>('select id, name from properties where lower(name) = lower(?)', [name]);
  if (!row) throw new HttpError(400, adminDocumentMessages.unknownProperty(name));
  return row;
}

async function lockedDocument(tx: EntityManager, id: number): Promise<IPropertyDocument> {
  const document = await tx.findOne(PropertyDocument, id, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['property', 'file'] });
  if (!document) throw new HttpError(404, adminDocumentMessages.notFound);
  return document;
}

/** What an edit's audit row compares. */
function auditedFields(d: IPropertyDocument): AuditFields {
  return {
    title: d.title,
    property: d.property?.name ?? defaultPropertyGroup,
    year: d.year,
    quarter: d.quarter,
    filename: d.filename,
    sha256: d.file.sha256,
  };
}

/**
 * Asked before an upload with e-mail, so the administrator knows who will hear of it: how many people a new document of this
 * property (or 'General') would e-mail, and whether investors are shown the property at all.
 */
export async function documentRecipients(em: EntityManager, name: string, allowSharing = false): Promise<DocumentRecipientsAnswer> {
  const property = await propertyByName(em, name);
  // With the delegates queueNotifications then tells, by the same rule.
  const delegates = allowSharing
    ? `(select count(distinct dl.id)::int from (select ?::int as property_id, 0 as id) d ${delegatesToNotify.property})`
    : '0';
  const [row] = await em.execute<{ recipients: number; investor_relations: boolean }[]>(
    `select (select count(*)::int from users u where ${readerOfProperty}) + ${delegates} as recipients,
            coalesce((select p.investor_relations and p.status = 'active' from properties p where p.id = ?), true) as investor_relations`,
    [property.id, property.id, ...(allowSharing ? [property.id, ...liveShareParams] : []), property.id],
  );
  return { recipients: row?.recipients ?? 0, investorRelations: row?.investor_relations ?? true };
}

/** The audit actions whose rows answer a retried upload-document under its Idempotency-Key. */
export const uploadDocumentActions = ['upload-document', 'correct'] as const;

/**
 * A property document is its content and its destination (a property, or 'General').
 * Held for the rest of the transaction, so that two uploads of the same bytes for the same
 * property at the same moment are taken one after the other: the second finds the first.
 */
async function holdPublication(tx: EntityManager, property: PropertyChoice, sha256: string): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`property-document:${property.id ?? 'general'}:${sha256}`]);
}

/** The document of this property (or 'General') whose current file has this content, if any. */
async function publishedWithContent(
  tx: EntityManager,
  property: PropertyChoice,
  sha256: string,
  except: number | null = null,
): Promise<{ id: number; title: string; year: number; quarter: Quarter } | undefined> {
  const [row] = await tx.execute<{ id: number; title: string; year: number; quarter: Quarter }[]>(
    `select d.id, d.title, d.year, d.quarter from property_documents d join stored_files f on f.id = d.file_id
      where (d.property_id = ?::int or (?::int is null and d.property_id is null)) and f.sha256 = ? and d.id <> ?
      order by d.id limit 1`,
    [property.id, property.id, sha256, except ?? 0],
  );
  return row;
}

/**
 * The document of this property (or 'General') that a new file of this title and period would be
 * (core's isSameDocument: a new version of it, not a second document), if any.
 */
async function sameDocument(
  tx: EntityManager,
  property: PropertyChoice,
  identity: { title: string; year: number; quarter: Quarter },
): Promise<{ id: number; title: string; uploaded_at: string } | undefined> {
  const rows = await tx.execute<{ id: number; title: string; year: number; quarter: Quarter; uploaded_at: string }[]>(
    `select id, title, year, quarter, to_char(uploaded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as uploaded_at
       from property_documents
      where (property_id = ?::int or (?::int is null and property_id is null)) and lower(title) = lower(?) and year = ? and quarter = ?
      order by id for update`,
    [property.id, property.id, identity.title, identity.year, identity.quarter],
  );
  return rows.find((row) => isSameDocument({ ...row, category: null }, { ...identity, category: null }));
}

/**
 * Publishes a property document: the file is checked by content and stored first, then the row,
 * its audit and its e-mails commit together, so an investor is never told of a document that
 * is not there. The same content already published for the same property (whatever its title or
 * period) is not published again: the answer is that document, and nobody is e-mailed.
 * Under an Idempotency-Key, a retry answers the first call's result.
 */
export async function uploadDocument(
  call: DocumentsCall,
  body: UploadDocumentBody,
  upload: UploadedFile | null,
  options: { idempotencyKey?: string } = {},
): Promise<DocumentAnswer> {
  // Refused before the file is kept: a typo in the property must not leave a file behind.
  await propertyByName(call.em, body.property);
  const file = await keepDocumentFile(upload, call.fileExistence);
  // notifyLater without emailNotification asks for nothing: no e-mail now, none later.
  const deferred = body.emailNotification && body.notifyLater;
  const key = options.idempotencyKey;
  return call.em.transactional(async (tx): Promise<DocumentAnswer> => {
    if (key) {
      await holdIdempotencyKey(tx, call.actor.id, 'upload-document', key);
      const earlier = await earlierAnswer(tx, call.actor.id, key, uploadDocumentActions);
      if (earlier) return documentAnswerSchema.parse(earlier);
    }
    const property = await propertyByName(tx, body.property);
    await holdPublication(tx, property, file.sha256);
    const existing = await publishedWithContent(tx, property, file.sha256);
    if (existing) {
      return {
        message: adminDocumentMessages.alreadyPublished(property.name, existing),
        document: await documentAnswer({ ...call, em: tx }, existing.id),
        alreadyPublished: true,
      };
    }
    // The property already has this document (its title and period): the file is its next
    // version, announced as a correction, never a second document of one title in a quarter.
    const namesake = await sameDocument(tx, property, body);
    if (namesake) {
      const corrected = await publishCorrection(tx, 'property', namesake.id, { fileId: await storedFileId(tx, file), filename: file.filename }, call.actor, '');
      if (deferred) await tx.execute('update property_documents set notification_pending = true where id = ?', [namesake.id]);
      const notified = body.emailNotification && !deferred
        ? await queueNotifications(tx, call, property, namesake.title, `${body.quarter} ${body.year}`, { note: '' })
        : 0;
      recordAdminAction(tx, call.actor, call.clientAddress, {
        action: 'correct',
        subject: { type: 'document', id: namesake.id, label: namesake.title },
        before: corrected.before,
        after: {
          version: corrected.version,
          filename: file.filename,
          sha256: file.sha256,
          size: file.size,
          note: '',
          through: 'upload-document',
          emailNotification: body.emailNotification,
          ...(deferred ? { notifyLater: true } : {}),
          notified,
          ...(key ? { idempotencyKey: key } : {}),
        },
      });
      const told = deferred
        ? ' Its e-mail waits to be sent with the rest of its batch.'
        : body.emailNotification
          ? ` ${peopleNotified(notified)}`
          : '';
      const answer = {
        message: adminDocumentMessages.correctedOnUpload(namesake.title, property.name, `${body.quarter} ${body.year}`, formatDate(namesake.uploaded_at)) + told,
        document: await documentAnswer({ ...call, em: tx }, namesake.id),
        corrected: true,
      };
      if (key) await rememberAnswer(tx, call.actor.id, key, uploadDocumentActions, answer);
      return answer;
    }
    const created = tx.create(PropertyDocument, {
      title: body.title,
      property: property.id,
      year: body.year,
      quarter: body.quarter,
      filename: file.filename,
      file: await storedFileId(tx, file),
      uploadedBy: call.actor.id,
      notificationPending: deferred,
    });
    await tx.flush();
    const notified = body.emailNotification && !deferred
      ? await queueNotifications(tx, call, property, body.title, `${body.quarter} ${body.year}`)
      : 0;
    recordAdminAction(tx, call.actor, call.clientAddress, {
      action: 'upload-document',
      subject: { type: 'document', id: created.id, label: body.title },
      after: {
        title: body.title,
        property: property.name,
        year: body.year,
        quarter: body.quarter,
        filename: file.filename,
        sha256: file.sha256,
        size: file.size,
        emailNotification: body.emailNotification,
        ...(deferred ? { notifyLater: true } : {}),
        notified,
        ...(key ? { idempotencyKey: key } : {}),
      },
    });
    const told = deferred
      ? ' Its e-mail waits to be sent with the rest of its batch.'
      : body.emailNotification
        ? ` ${peopleNotified(notified)}`
        : '';
    const answer = { message: `Document "${body.title}" uploaded.${told}`, document: await documentAnswer({ ...call, em: tx }, created.id) };
    if (key) await rememberAnswer(tx, call.actor.id, key, uploadDocumentActions, answer);
    return answer;
  });
}

/** A file only ever replaces a document of the destination its caller names. */
function refuseOtherProperty(filedUnder: string, named: string | undefined): void {
  if (named !== undefined && named.toLowerCase() !== filedUnder.toLowerCase()) {
    throw new HttpError(409, adminDocumentMessages.otherProperty(filedUnder, named));
  }
}

/**
 * Puts a new file under an existing document, keeping its title and filing. When the document's
 * file exists and the new one differs, this publishes a corrected version: the old
 * file stays downloadable for administrators, investors see the new one marked 'Corrected', and
 * with `emailNotification` its readers are told why (`note`). When the file was missing, it is
 * put back under the current version (the spec's Replace File): a repair, not a correction.
 * The very file the document has changes nothing (`unchanged`). Refused (409) when `body.property` names another destination than the document's, or when
 * another document of its property holds the same content.
 */
export async function replaceDocument(
  call: DocumentsCall,
  documentId: number,
  body: ReplaceDocumentBody,
  upload: UploadedFile | null,
): Promise<DocumentAnswer> {
  const [current] = await call.em.execute<{ sha256: string; property: string }[]>(
    `select f.sha256, coalesce(p.name, ?) as property from property_documents d join stored_files f on f.id = d.file_id
       left join properties p on p.id = d.property_id where d.id = ?`,
    [defaultPropertyGroup, documentId],
  );
  if (!current) throw new HttpError(404, adminDocumentMessages.notFound);
  // Refused before the file is kept, and again under the row's lock (a refiling in between).
  refuseOtherProperty(current.property, body.property);
  // Asked before the new file is kept: the same bytes would make a lost file look present.
  const hadFile = (await call.fileExistence.existing([current.sha256])).has(current.sha256);
  if (hadFile && upload?.sha256 === current.sha256) {
    // The very file it has: no version, no audit row, no e-mail, and the answer says so.
    const document = await documentAnswer(call, documentId);
    return { message: unchangedMessage(document.title), document, unchanged: true };
  }
  const file = await keepDocumentFile(upload, call.fileExistence);
  const outcome = await call.em.transactional(async (tx) => {
    const document = await lockedDocument(tx, documentId);
    const before = auditedFields(document);
    const property: PropertyChoice = document.property
      ? { id: document.property.id, name: document.property.name }
      : { id: null, name: defaultPropertyGroup };
    refuseOtherProperty(property.name, body.property);
    // One content, one document per property, as the uploads decide; a document's own
    // content is never a twin, so twins published before this rule can still get their file back.
    if (file.sha256 !== before.sha256) {
      await holdPublication(tx, property, file.sha256);
      const twin = await publishedWithContent(tx, property, file.sha256, documentId);
      if (twin) throw new HttpError(409, adminDocumentMessages.contentUsed(property.name, twin.title));
    }
    const fileId = await storedFileId(tx, file);
    if (!hadFile || before.sha256 === file.sha256) {
      await repairCurrentVersion(tx, 'property', documentId, { fileId, filename: file.filename });
      recordAdminAction(tx, call.actor, call.clientAddress, {
        action: 'replace-document',
        subject: { type: 'document', id: documentId, label: document.title },
        before: { filename: before.filename, sha256: before.sha256 },
        after: { filename: file.filename, sha256: file.sha256, size: file.size },
      });
      return { corrected: null, notified: 0, deferred: false };
    }
    const corrected = await publishCorrection(tx, 'property', documentId, { fileId, filename: file.filename }, call.actor, body.note);
    // Deferred, the correction waits for its batch's digest, which lists it as corrected.
    const deferred = body.emailNotification && body.notifyLater;
    if (deferred) await tx.execute('update property_documents set notification_pending = true where id = ?', [documentId]);
    const notified = body.emailNotification && !deferred
      ? await queueNotifications(tx, call, property, document.title, `${document.quarter} ${document.year}`, { note: body.note })
      : 0;
    recordAdminAction(tx, call.actor, call.clientAddress, {
      action: 'correct',
      subject: { type: 'document', id: documentId, label: document.title },
      before: corrected.before,
      after: {
        version: corrected.version,
        filename: file.filename,
        sha256: file.sha256,
        size: file.size,
        note: body.note,
        emailNotification: body.emailNotification,
        ...(deferred ? { notifyLater: true } : {}),
        notified,
      },
    });
    return { corrected, notified, deferred };
  });
  const document = await documentAnswer(call, documentId);
  if (!outcome.corrected) return { message: `The file of "${document.title}" was replaced.`, document };
  const told = outcome.deferred
    ? ' Its e-mail waits to be sent with the rest of its batch.'
    : body.emailNotification
      ? ` ${peopleNotified(outcome.notified)}`
      : '';
  return {
    // The message keeps its words (clients of the spec read it); `corrected` and the document's
    // `version` and `correctedAt` say what changed.
    message: `The file of "${document.title}" was replaced.${told}`,
    document,
    corrected: true,
  };
}

export async function updateDocument(call: DocumentsCall, body: UpdateDocumentBody): Promise<DocumentAnswer> {
  await call.em.transactional(async (tx) => {
    const document = await lockedDocument(tx, body.documentId);
    const property = await propertyByName(tx, body.property);
    const before = auditedFields(document);
    document.title = body.title;
    document.property = property.id === null ? null : tx.getReference(Property, property.id);
    document.year = body.year;
    document.quarter = body.quarter;
    await tx.flush();
    const changes = changedFields(before, { ...auditedFields(document), property: property.name });
    recordAdminAction(tx, call.actor, call.clientAddress, {
      action: 'update-document',
      subject: { type: 'document', id: document.id, label: document.title },
      ...changes,
    });
  });
  const document = await documentAnswer(call, body.documentId);
  return { message: `Document "${document.title}" saved.`, document };
}

/**
 * Removes the document. Its file stays in the store: the store is content-addressed, so other
 * documents may hold the same bytes, and property photos name files by hash without a row to
 * count. Removing files that nothing names any more is a sweep of its own (not built yet).
 */
export async function deleteDocument(call: DocumentsCall, body: DeleteDocumentBody): Promise<MessageAnswer> {
  return call.em.transactional(async (tx) => {
    const document = await lockedDocument(tx, body.documentId);
    recordAdminAction(tx, call.actor, call.clientAddress, {
      action: 'delete-document',
      subject: { type: 'document', id: document.id, label: document.title },
      before: auditedFields(document),
    });
    tx.remove(document);
    return { message: `Document "${document.title}" deleted.` };
  });
}
