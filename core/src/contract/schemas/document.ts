import { z } from 'zod';
import { documentCategories } from '../../domain/enums';
import { fieldMax } from '../../domain/limits';
import { documentYear, idOf, optionalText, quarter, requiredText, timestamp, yesNo } from './fields';
import { onBehalfOf } from './shares';
import { correctionFields, personalDocument } from './personal-document';

/** A property document (documentType 'property'); `property` is a name or 'General'. */
export const propertyDocument = z.object({
  id: z.number().int(),
  title: z.string(),
  property: z.string(),
  year: z.number().int(),
  quarter,
  filename: z.string(),
  fileSize: z.number().int().nonnegative(),
  uploadedAt: timestamp,
  fileExists: z.boolean(),
  documentType: z.literal('property'),
  ...correctionFields,
});
export type PropertyDocument = z.infer<typeof propertyDocument>;

/**
 * Whether the caller has previewed or downloaded the document at least once (the read
 * receipts): the portal shows 'New' on those not opened yet.
 */
const opened = { opened: z.boolean() };

/** One item of the investor's list: either kind, told apart by `documentType`. */
export const investorDocument = z.discriminatedUnion('documentType', [propertyDocument.extend(opened), personalDocument.extend(opened)]);
export type InvestorDocument = z.infer<typeof investorDocument>;

/** GET /api/investor/documents: the caller's property documents and personal documents. */
export const investorDocumentsAnswer = z.object({ documents: z.array(investorDocument) });
export type InvestorDocumentsAnswer = z.infer<typeof investorDocumentsAnswer>;

/** GET /api/investor/categories. decided: the personal-document categories with their labels. */
export const investorCategoriesAnswer = z.object({
  categories: z.array(z.object({ value: z.enum(documentCategories), label: z.string() })),
});
export type InvestorCategoriesAnswer = z.infer<typeof investorCategoriesAnswer>;

export const downloadParams = z.object({ id: idOf('document') });
export type DownloadParams = z.infer<typeof downloadParams>;

/**
 * `token` lets a new window or a preview frame sign in without a header; `type=user` asks for
 * a personal document, anything else (or nothing) for a property document. decided:
 * `preview=1` answers the file inline for the preview frame (and is audited as a preview);
 * without it the file comes as an attachment to save.
 */
export const downloadQuery = z.object({
  token: z.string().max(2000).optional(),
  type: z.string().optional().transform((type) => (type === 'user' ? 'user' : 'property')),
  preview: z.string().optional().transform((preview) => preview === '1' || preview === 'true'),
  onBehalfOf,
});
export type DownloadQuery = z.infer<typeof downloadQuery>;

/**
 * POST /api/investor/document-link. Not in the spec: the portal's own preview and download
 * addresses carry a short-lived token that opens this one document instead of the
 * 8-hour session token. `type` as in the download's query: 'user' for a personal document.
 */
export const documentLinkTarget = z.enum(['property', 'user', 'version']);
export type DocumentLinkTarget = z.infer<typeof documentLinkTarget>;
export const documentLinkBody = z.object({
  id: idOf('document'),
  // 'version': `id` is a version's, for download-version (a corrected document's earlier files).
  type: documentLinkTarget.default('property'),
  onBehalfOf,
});
export type DocumentLinkBody = z.infer<typeof documentLinkBody>;

/** The token for the download's `?token=`, and when it stops opening the document. */
export const documentLinkAnswer = z.object({ token: z.string(), expiresAt: timestamp });
export type DocumentLinkAnswer = z.infer<typeof documentLinkAnswer>;

/** GET /api/admin/documents. decided: every property document; the panel searches and pages. */
export const adminDocumentsAnswer = z.object({ documents: z.array(propertyDocument) });
export type AdminDocumentsAnswer = z.infer<typeof adminDocumentsAnswer>;

const title = requiredText('Title', fieldMax.title, 'Please enter a document title.');
const propertyName = requiredText(
  'Property',
  fieldMax.propertyName,
  "Please choose a property, or 'General' for a document of no property.",
);

/** Multipart: the file field `document` plus these text fields. */
export const uploadDocumentBody = z.object({
  title,
  property: propertyName,
  year: documentYear,
  quarter,
  emailNotification: yesNo('Email notification', false),
  /**
   * Not in the spec (the watched-folder sync): with `emailNotification`, nothing is sent now; the
   * document waits for notify-documents, which sends one digest per recipient for a whole batch.
   */
  notifyLater: yesNo('Notify later', false),
});
export type UploadDocumentBody = z.infer<typeof uploadDocumentBody>;

export const documentAnswer = z.object({
  message: z.string(),
  document: propertyDocument,
  /** Not in the spec: set by replace-document when it published a corrected version. */
  corrected: z.boolean().optional(),
  /**
   * upload-document found this content already published for this property (the
   * document answered is that one, in its own period); nothing was published or e-mailed.
   */
  alreadyPublished: z.boolean().optional(),
  /** replace-document was given the very file the document has; nothing changed. */
  unchanged: z.boolean().optional(),
});
export type DocumentAnswer = z.infer<typeof documentAnswer>;

export const replaceDocumentParams = z.object({ documentId: idOf('document') });
export type ReplaceDocumentParams = z.infer<typeof replaceDocumentParams>;

/**
 * Multipart: the file field `document` (the spec's only field), plus two optional text fields.
 * When the document's file exists, the new file is published as a corrected
 * version; with `emailNotification` its readers are told so, with `note` as the reason.
 */
export const replaceDocumentBody = z.object({
  note: optionalText('Correction note', fieldMax.correctionNote).transform((note) => note ?? ''),
  emailNotification: yesNo('Email notification', false),
  /**
   * With emailNotification: a correction's e-mail waits for notify-documents, which lists it,
   * as corrected, in the one digest of its batch (the watched-folder sync's changed files).
   */
  notifyLater: yesNo('Notify later', false),
  /**
   * The property (or 'General') the caller believes the document belongs to. When
   * given and the document is filed under another, the replace is refused (409): a file can
   * only ever replace the document of its own destination.
   */
  property: optionalText('Property', fieldMax.propertyName),
});
export type ReplaceDocumentBody = z.infer<typeof replaceDocumentBody>;

export const updateDocumentBody = z.object({
  documentId: idOf('document'),
  title,
  property: propertyName,
  year: documentYear,
  quarter,
});
export type UpdateDocumentBody = z.infer<typeof updateDocumentBody>;

export const deleteDocumentBody = z.object({ documentId: idOf('document') });
export type DeleteDocumentBody = z.infer<typeof deleteDocumentBody>;


/**
 * Not in the spec: POST /api/admin/notify-documents, the e-mail of a batch of property documents
 * uploaded with `notifyLater` (the watched-folder sync): one digest per recipient listing the
 * batch's documents they can read. A document is announced once: ids already announced, never
 * deferred or deleted are skipped, so a retried call sends nothing twice.
 */
export const notifyDocumentsBody = z
  .object({
    documentIds: z.array(idOf('document')).max(1000, 'At most 1000 documents at once.').default([]),
    /**
     * Personal documents published with bulk-upload-user-documents' `notifyLater`, so
     * that a quarter folder's two halves reach each reader as one digest.
     */
    userDocumentIds: z.array(idOf('document')).max(10000, 'At most 10000 personal documents at once.').default([]),
  })
  .refine((body) => body.documentIds.length + body.userDocumentIds.length > 0, 'Please choose a document.');
export type NotifyDocumentsBody = z.infer<typeof notifyDocumentsBody>;

export const notifyDocumentsAnswer = z.object({
  message: z.string(),
  /** The documents announced by this call (those of the request still waiting for their e-mail). */
  documentIds: z.array(z.number().int()),
  /** Likewise for the request's personal documents. */
  userDocumentIds: z.array(z.number().int()),
  /** How many people were sent a digest. */
  notified: z.number().int().nonnegative(),
  /** How many of the announced documents were corrections (a new version of a document readers had). */
  corrected: z.number().int().nonnegative().optional(),
});
export type NotifyDocumentsAnswer = z.infer<typeof notifyDocumentsAnswer>;

/**
 * GET /api/admin/document-versions/:documentType/:documentId, every version of a
 * document, newest first; the first is the one investors read.
 */
export const documentVersionsParams = z.object({
  documentType: z.enum(['property', 'personal'], { error: "The document type must be 'property' or 'personal'." }),
  documentId: idOf('document'),
});
export type DocumentVersionsParams = z.infer<typeof documentVersionsParams>;

export const documentVersion = z.object({
  /** The id `download-version` takes. */
  id: z.number().int(),
  version: z.number().int().positive(),
  current: z.boolean(),
  filename: z.string(),
  fileSize: z.number().int().nonnegative(),
  contentType: z.string(),
  sha256: z.string(),
  uploadedAt: timestamp,
  /** The administrator's e-mail, or '' when unknown (a seeded document, a deleted account). */
  uploadedBy: z.string(),
  /** Why this version corrects the one before ('' for none, and for the first version). */
  note: z.string(),
  fileExists: z.boolean(),
});
export type DocumentVersion = z.infer<typeof documentVersion>;

export const documentVersionsAnswer = z.object({ title: z.string(), versions: z.array(documentVersion) });
export type DocumentVersionsAnswer = z.infer<typeof documentVersionsAnswer>;

/**
 * GET /api/investor/download-version/:versionId, one version's file. Administrators
 * download any version; anyone else only the current version of a document they may read, and
 * an earlier version's id answers 404, as an id that does not exist.
 */
export const downloadVersionParams = z.object({ versionId: idOf('version') });
export type DownloadVersionParams = z.infer<typeof downloadVersionParams>;

export const downloadVersionQuery = z.object({
  // A document link of this version; a session token is taken from the header only.
  token: z.string().max(2000).optional(),
  preview: z.string().optional().transform((preview) => preview === '1' || preview === 'true'),
  onBehalfOf,
});
export type DownloadVersionQuery = z.infer<typeof downloadVersionQuery>;

/**
 * GET /api/admin/document-recipients?property=…, asked before an upload with e-mail:
 * how many people a new document of this property (or 'General') would e-mail, and how many
 * can read it at all. 0 readers is the panel's warning "No investor can see this document".
 */
export const documentRecipientsQuery = z.object({ property: propertyName });
export type DocumentRecipientsQuery = z.infer<typeof documentRecipientsQuery>;

export const documentRecipientsAnswer = z.object({
  /** Active investors and employees with access (everyone for 'General'): who would be e-mailed. */
  recipients: z.number().int().nonnegative(),
  /** Whether the property is shown to investors at all (investor relations on, not sold or inactive). */
  investorRelations: z.boolean(),
});
export type DocumentRecipientsAnswer = z.infer<typeof documentRecipientsAnswer>;
