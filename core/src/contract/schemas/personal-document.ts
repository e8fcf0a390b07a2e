import { z } from 'zod';
import { documentCategories } from '../../domain/enums';
import { fieldMax, pageSize } from '../../domain/limits';
import { maxImportRows } from '../../domain/csv-columns';
import { portalMessages } from '../../domain/messages';
import {
  calendarDate,
  documentYear,
  emailAddress,
  idOf,
  optionalText,
  pageLimit,
  pageNumber,
  quarter,
  requiredText,
  timestamp,
  yesNo,
} from './fields';

/**
 * On both kinds of document: `version` counts the published files (1 until a
 * correction), `correctedAt` is when the current one corrected the one before (null for a
 * document never corrected): the portal's 'Corrected {date}' badge.
 */
export const correctionFields = {
  version: z.number().int().positive(),
  correctedAt: timestamp.nullable(),
};

/** A personal document (documentType 'personal'), as both the portal and the admin panel read it. */
export const personalDocument = z.object({
  id: z.number().int(),
  title: z.string(),
  documentCategory: z.enum(documentCategories),
  /** '' when there is none. */
  description: z.string(),
  /** 'YYYY-MM-DD', or null. */
  documentDate: z.string().nullable(),
  /** Comma-separated, '' when there are none. */
  tags: z.string(),
  userEmail: z.string(),
  assignedUserId: z.number().int(),
  uploadedAt: timestamp,
  filename: z.string(),
  fileSize: z.number().int().nonnegative(),
  documentType: z.literal('personal'),
  year: z.number().int(),
  quarter,
  fileExists: z.boolean(),
  ...correctionFields,
});
export type PersonalDocument = z.infer<typeof personalDocument>;

export const adminPersonalDocumentsQuery = z.object({
  page: pageNumber.default(1),
  limit: pageLimit.default(pageSize),
  /** Matches, in any case, the title, the tags, and the owner's e-mail, full name or entity. */
  search: optionalText('Search', fieldMax.search),
});
export type AdminPersonalDocumentsQuery = z.infer<typeof adminPersonalDocumentsQuery>;

export const adminPersonalDocumentsAnswer = z.object({
  documents: z.array(personalDocument),
  totalCount: z.number().int().nonnegative(),
});
export type AdminPersonalDocumentsAnswer = z.infer<typeof adminPersonalDocumentsAnswer>;

const category = z.enum(documentCategories, { error: 'Please choose a document category.' });

/** '' or null clears the date. */
const optionalCalendarDate = z
  .union([z.literal(''), z.null(), calendarDate])
  .transform((value) => value || null)
  .optional();

/**
 * Multipart: the file field `document` plus these text fields. description, documentDate, tags,
 * year and quarter extend the spec's payload; without year and quarter the server takes them
 * from documentDate, else from the upload date.
 */
export const uploadPersonalDocumentBody = z.object({
  userEmail: emailAddress('Please choose a user.'),
  documentCategory: category,
  title: requiredText('Title', fieldMax.title, 'Please enter a document title.'),
  emailNotification: yesNo('Email notification', false),
  /** Sent by the spec's client with values it does not show; kept only for the audit log. */
  uploadType: optionalText('Upload type', 50),
  description: optionalText('Description', fieldMax.description),
  documentDate: optionalCalendarDate,
  tags: optionalText('Tags', fieldMax.tags),
  year: documentYear.optional(),
  quarter: quarter.optional(),
  /**
   * A title the investor already has (any letter case) publishes the file as a
   * corrected version of that document; this is why, for its e-mail and its history.
   */
  correctionNote: optionalText('Correction note', fieldMax.correctionNote).transform((note) => note ?? ''),
});
export type UploadPersonalDocumentBody = z.infer<typeof uploadPersonalDocumentBody>;

/**
 * decided (DECISIONS.md): an upload whose content is already published for the same investor
 * publishes nothing; it answers 200 with the document already there, `alreadyPublished: true`
 * and a message that says so.
 */
export const personalDocumentAnswer = z.object({
  message: z.string(),
  document: personalDocument,
  alreadyPublished: z.boolean().optional(),
  /** The file was published as a corrected version of a document the investor had. */
  corrected: z.boolean().optional(),
  /** replace-user-document was given the very file the document has; nothing changed. */
  unchanged: z.boolean().optional(),
});
export type PersonalDocumentAnswer = z.infer<typeof personalDocumentAnswer>;

/** Not in the spec: POST /api/admin/replace-user-document/:documentId, as replace-document is for property documents. */
export const replacePersonalDocumentParams = z.object({ documentId: idOf('document') });
export type ReplacePersonalDocumentParams = z.infer<typeof replacePersonalDocumentParams>;

/** Multipart: the file field `document`, and replace-document's optional note and e-mail flag. */
export const replacePersonalDocumentBody = z.object({
  note: optionalText('Correction note', fieldMax.correctionNote).transform((note) => note ?? ''),
  emailNotification: yesNo('Email notification', false),
  /** As replace-document's: the correction's e-mail waits for the batch's digest (notify-documents). */
  notifyLater: yesNo('Notify later', false),
  /**
   * The investor the caller believes owns the document. When given and the document
   * is another investor's, the replace is refused (409).
   */
  userEmail: emailAddress().optional(),
});
export type ReplacePersonalDocumentBody = z.infer<typeof replacePersonalDocumentBody>;

export const editPersonalDocumentBody = z.object({
  documentId: idOf('document'),
  title: requiredText('Title', fieldMax.title, portalMessages.fillTitleAndCategory),
  documentCategory: z.enum(documentCategories, { error: portalMessages.fillTitleAndCategory }),
  description: optionalText('Description', fieldMax.description),
  documentDate: optionalCalendarDate,
  tags: optionalText('Tags', fieldMax.tags),
});
export type EditPersonalDocumentBody = z.infer<typeof editPersonalDocumentBody>;

export const deletePersonalDocumentBody = z.object({ documentId: idOf('document') });
export type DeletePersonalDocumentBody = z.infer<typeof deletePersonalDocumentBody>;

/** Multipart: the file field `csvManifest`, the file fields `documents`, and this flag. */
export const bulkUploadPersonalDocumentsBody = z.object({
  emailNotification: yesNo('Email notification', false),
  /**
   * The batch's period (a quarter folder's, or chosen in the form). A row's own
   * document_date still wins; without either, the upload date's quarter.
   */
  year: documentYear.optional(),
  quarter: quarter.optional(),
  /**
   * With `emailNotification`, nothing is sent now; the documents wait for
   * notify-documents (its `userDocumentIds`), which sends one digest per reader for a whole
   * quarter folder, property and personal documents together.
   */
  notifyLater: yesNo('Notify later', false),
});
export type BulkUploadPersonalDocumentsBody = z.infer<typeof bulkUploadPersonalDocumentsBody>;

/**
 * decided: `successful` names each stored document; `unprocessed` holds the selected files the
 * manifest does not name; `totalProcessed` counts the manifest rows handled.
 */
export const bulkUploadPersonalDocumentsAnswer = z.object({
  message: z.string(),
  successful: z.array(
    z.object({
      filename: z.string(),
      userEmail: z.string(),
      title: z.string(),
      documentId: z.number().int(),
      /** The row corrected the investor's document of that title, category and period (a new version). */
      corrected: z.boolean().optional(),
      /** With `corrected`: when the document it corrected was first published, to name it exactly. */
      firstPublishedAt: timestamp.optional(),
      /** The period it was filed under. */
      year: z.number().int().optional(),
      quarter: quarter.optional(),
    }),
  ),
  failed: z.array(z.object({ filename: z.string(), error: z.string() })),
  /**
   * Rows whose content the investor already has (from an earlier batch, or this very
   * batch confirmed again): not failures, and not published again.
   */
  alreadyPublished: z
    .array(z.object({ filename: z.string(), userEmail: z.string(), title: z.string(), documentId: z.number().int().optional() }))
    .default([]),
  unprocessed: z.array(z.string()),
  totalProcessed: z.number().int().nonnegative(),
  /** This answer is for a batch sent again under the same Idempotency-Key: nothing new was published. */
  repeated: z.boolean().optional(),
  /** With notifyLater, the personal documents waiting for notify-documents. */
  pendingUserDocumentIds: z.array(z.number().int()).optional(),
});
export type BulkUploadPersonalDocumentsAnswer = z.infer<typeof bulkUploadPersonalDocumentsAnswer>;

/**
 * The optional `Idempotency-Key` header of bulk-upload-user-documents (the browser sends the
 * batch's hash): a retried request with the same key, from the same administrator, answers the
 * first request's result instead of reading the batch again.
 */
export const idempotencyKeyHeader = z
  .string()
  .trim()
  .max(200, 'The Idempotency-Key header must be 200 characters or fewer.')
  .transform((value) => value || undefined)
  .optional();

/**
 * What the browser's dry run (planBulkManifest) asks the server before anything is sent: about
 * the manifest's e-mails and the selected files' hashes only, never the whole user list.
 */
export const bulkUploadPreviewBody = z.object({
  emails: z.array(z.string().trim().toLowerCase().max(fieldMax.email)).max(maxImportRows),
  sha256: z.array(z.string().regex(/^[0-9a-f]{64}$/, 'Each sha256 must be 64 lower-case hex digits.')).max(maxImportRows),
});
export type BulkUploadPreviewBody = z.infer<typeof bulkUploadPreviewBody>;

/**
 * Per known investor: their id, which of the given hashes they already have, and the documents
 * they have (core's DocumentIdentity: a row naming one corrects it).
 */
export const bulkUploadPreviewAnswer = z.object({
  users: z.array(
    z.object({
      email: z.string(),
      userId: z.number().int(),
      publishedSha256: z.array(z.string()),
      documents: z.array(
        z.object({
          documentId: z.number().int(),
          title: z.string(),
          category: z.enum(documentCategories),
          year: z.number().int(),
          quarter,
          firstPublishedAt: timestamp,
        }),
      ),
      /** A deactivated account's rows are refused: nobody could read them. */
      active: z.boolean(),
    }),
  ),
});
export type BulkUploadPreviewAnswer = z.infer<typeof bulkUploadPreviewAnswer>;

/**
 * Every investor (role 'user') as content matching reads them: the browser's and the desktop's
 * "Match by content" build core's identifier index from this, then read the PDFs where the files
 * are. Staff accounts are left out: they receive no K-1, and their entity (the firm's own name)
 * is printed on every K-1 the partnership sends. Deactivated investors are in, marked: a K-1 that
 * names one must not go to another, and the manifest then refuses it with its sentence.
 */
export const contentMatchingInvestorsAnswer = z.object({
  investors: z.array(
    z.object({
      id: z.number().int(),
      email: z.string(),
      name: z.string(),
      entity: z.string(),
      identifiers: z.array(z.string()),
      active: z.boolean(),
    }),
  ),
});
export type ContentMatchingInvestorsAnswer = z.infer<typeof contentMatchingInvestorsAnswer>;
