import { z } from 'zod';
import { fieldMax, pageSize } from '../../domain/limits';
import { idOf, optionalText, pageLimit, pageNumber, quarter, timestamp, yesNo } from './fields';

// Read receipts: which entitled investors opened which document, from the audit rows
// of previews and downloads. Entitled: for a property document, every active investor and
// employee with access to its property ('General': all of them); for a personal document, its
// owner.

export const receiptDocumentType = z.enum(['property', 'personal']);
export type ReceiptDocumentType = z.infer<typeof receiptDocumentType>;

/** A document as the read-receipt views name it; `context` is its property or its owner's e-mail. */
export const receiptDocument = z.object({
  documentType: receiptDocumentType,
  id: z.number().int(),
  title: z.string(),
  context: z.string(),
  year: z.number().int(),
  quarter,
  uploadedAt: timestamp,
});
export type ReceiptDocument = z.infer<typeof receiptDocument>;

/** `notOpened=true` keeps only the rows that someone entitled has not opened yet. */
const notOpened = yesNo('Not opened', false);

/** GET /api/admin/read-receipts/documents: every document, newest first, with its counts. */
export const receiptDocumentsQuery = z.object({
  page: pageNumber.default(1),
  limit: pageLimit.default(pageSize),
  /** Matches title, property name or owner's e-mail, in any case. */
  search: optionalText('Search', fieldMax.search),
  notOpened,
});
export type ReceiptDocumentsQuery = z.input<typeof receiptDocumentsQuery>;

export const receiptDocumentSummary = receiptDocument.extend({
  entitledCount: z.number().int().nonnegative(),
  openedCount: z.number().int().nonnegative(),
  /** When the last reminder about this document went to anyone; null when none went. */
  lastRemindedAt: timestamp.nullable(),
});
export type ReceiptDocumentSummary = z.infer<typeof receiptDocumentSummary>;

export const receiptDocumentsAnswer = z.object({
  documents: z.array(receiptDocumentSummary),
  totalCount: z.number().int().nonnegative(),
});
export type ReceiptDocumentsAnswer = z.infer<typeof receiptDocumentsAnswer>;

export const receiptDocumentParams = z.object({ documentType: receiptDocumentType, id: idOf('document') });
export type ReceiptDocumentParams = z.infer<typeof receiptDocumentParams>;

export const receiptPageQuery = z.object({
  page: pageNumber.default(1),
  limit: pageLimit.default(pageSize),
  notOpened,
});
export type ReceiptPageQuery = z.input<typeof receiptPageQuery>;

/** When someone opened something: first and last preview or download, and how many. */
const opening = {
  firstOpenedAt: timestamp.nullable(),
  lastOpenedAt: timestamp.nullable(),
  opens: z.number().int().nonnegative(),
  lastRemindedAt: timestamp.nullable(),
  /**
   * The people who opened it on the investor's behalf, through a share (a delegate's
   * open counts as the investor's, in `opens` and the dates); empty when only the investor did.
   */
  openedBy: z.array(z.object({ userId: z.number().int(), email: z.string(), name: z.string() })).optional(),
};

export const receiptInvestor = z.object({
  userId: z.number().int(),
  email: z.string(),
  name: z.string(),
});
export type ReceiptInvestor = z.infer<typeof receiptInvestor>;

/** GET /api/admin/read-receipts/documents/:documentType/:id: its entitled investors, not opened first. */
export const receiptDocumentAnswer = z.object({
  document: receiptDocumentSummary,
  investors: z.array(receiptInvestor.extend(opening)),
  totalCount: z.number().int().nonnegative(),
});
export type ReceiptDocumentAnswer = z.infer<typeof receiptDocumentAnswer>;

export const receiptInvestorParams = z.object({ userId: idOf('user') });
export type ReceiptInvestorParams = z.infer<typeof receiptInvestorParams>;

/** GET /api/admin/read-receipts/investors/:userId: every document they may read, not opened first. */
export const receiptInvestorAnswer = z.object({
  investor: receiptInvestor.extend({
    entitledCount: z.number().int().nonnegative(),
    openedCount: z.number().int().nonnegative(),
    /** When they were last reminded of any of their documents; null when never. */
    lastRemindedAt: timestamp.nullable(),
  }),
  documents: z.array(receiptDocument.extend(opening)),
  totalCount: z.number().int().nonnegative(),
});
export type ReceiptInvestorAnswer = z.infer<typeof receiptInvestorAnswer>;

/** The most documents one reminder call may name. */
export const maxReminderDocuments = 500;

/**
 * POST /api/admin/read-receipts/remind: e-mails every entitled investor who has not opened some of
 * the chosen documents, one e-mail each listing all of theirs, skipping any investor and document
 * reminded within the last 7 days. `documents` absent: every document; `userIds` absent: every
 * entitled investor. At least one of them is given.
 */
export const remindBody = z
  .object({
    documents: z
      .array(z.object({ documentType: receiptDocumentType, id: idOf('document') }))
      .min(1, 'Please choose at least one document.')
      .max(maxReminderDocuments, `At most ${maxReminderDocuments} documents at a time.`)
      .optional(),
    userIds: z.array(idOf('user')).min(1, 'Please choose at least one investor.').max(1000, 'At most 1000 investors at a time.').optional(),
    /** Answer who would be e-mailed, and send nothing (the panel's "This will e-mail N people"). */
    dryRun: z.boolean().optional(),
  })
  .refine((body) => body.documents !== undefined || body.userIds !== undefined, 'Please choose documents or investors to remind.');
export type RemindBody = z.infer<typeof remindBody>;

export const remindAnswer = z.object({
  message: z.string(),
  /** Investors e-mailed now. */
  remindedInvestors: z.number().int().nonnegative(),
  /** Unopened documents listed in those e-mails, all together (an investor-document pair each). */
  remindedDocuments: z.number().int().nonnegative(),
  /** How many distinct documents those pairs name. */
  distinctDocuments: z.number().int().nonnegative().optional(),
  /** Unopened investor-document pairs left out because a reminder went within 7 days. */
  skippedRecent: z.number().int().nonnegative(),
  remindedAt: timestamp,
});
export type RemindAnswer = z.infer<typeof remindAnswer>;

/** Days before the same investor may be reminded of the same document again. */
export const reminderIntervalDays = 7;
