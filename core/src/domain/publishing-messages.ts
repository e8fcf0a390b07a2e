// The sentences of publishing that the dry runs and the server share, so that a preview says
// what the upload will then answer: a file's type, size and content, a title, a twin, a
// document nobody could read, an unfinished file and an unreadable CSV.

import { acceptedDocumentExtensions, maxDocumentBytes, type DocumentExtension } from './document-files';
import { formatDate } from './format';
import { fieldMax, megabyte } from './limits';
import { csvLine, csvMessages } from './csv-read';
import type { PublishedIdentity } from './publication-identity';

/** What a document file's content must be for each accepted extension. */
export type DocumentContainer = 'pdf' | 'ole' | 'zip';

export const documentContainers: Record<DocumentExtension, DocumentContainer> = {
  '.pdf': 'pdf',
  '.doc': 'ole',
  '.xls': 'ole',
  '.docx': 'zip',
  '.xlsx': 'zip',
};

const documentKindLabels: Record<DocumentExtension, string> = {
  '.pdf': 'a PDF document',
  '.doc': 'a Word document',
  '.docx': 'a Word document',
  '.xls': 'an Excel workbook',
  '.xlsx': 'an Excel workbook',
};

/** Every sentence the dry runs and the server share (size, type, title length, twin, CSV…). */
export const publishingMessages = {
  wrongType: `Not a document type the portal accepts (${acceptedDocumentExtensions.map((e) => e.slice(1)).join(', ')}).`,
  empty: 'The file is empty.',
  tooLarge: `The file is larger than ${maxDocumentBytes / megabyte} MB, the most the portal accepts.`,
  /** The first bytes say otherwise than the name (a text file named .pdf, a zip named .doc). */
  contentNotAsNamed: (extension: DocumentExtension) =>
    `The file's content is not ${documentKindLabels[extension]}, though its name ends in ${extension}.`,
  titleTooLong: `Title is too long (at most ${fieldMax.title} characters)`,
  /** A property document is titled by its file name. */
  fileNameTitleTooLong: `The file name is too long to be the document's title (at most ${fieldMax.title} characters before the extension): shorten it.`,
  fileNameNoTitle: "The file name gives no title: name the file as the document's title.",
  /**
   * What a publication corrects (a document of its destination with the same title, category
   * and period): named exactly, as its readers know it.
   */
  corrects: (document: PublishedIdentity) =>
    `corrects ${document.title} (${document.quarter} ${document.year}, first published ${formatDate(document.firstPublishedAt, 'earlier')})`,
  /** A second name for content the same investor gets under `original`. */
  twinForInvestor: (original: string) => `Same content as ${original} for this investor (the copy is not published)`,
  /** A second name for content the same property gets under `original`. */
  twinForProperty: (original: string) => `Same content as ${original} for this property (the copy is not published)`,
  /** A property document only administrators could read (see hasNoReader). */
  noReader: 'No investor can see this document',
  /** Why no investor can see a document of `property`, after noReader. */
  noReaderBecause: (property: string, investorRelations: boolean) =>
    investorRelations
      ? `No active investor has access to ${property}: only administrators will see a document filed under it.`
      : `${property} is not shown to investors: only administrators will see a document filed under it.`,
  /** A document not finished yet: its end is missing, as a scanner or a copy leaves it while still writing. */
  incomplete: {
    pdf: "The PDF does not end with its end-of-file mark (%%EOF): it is still being written, or it is damaged.",
    zip: 'The file does not end as a Word or Excel file does: it is still being written, or it is damaged.',
    ole: 'The file does not end as a Word or Excel file does: it is still being written, or it is damaged.',
  },
  csvLine,
  csv: csvMessages,
} as const;

/**
 * Whether a new document of a property would be read by administrators only, from the server's
 * document-recipients answer: nobody active has access, or investors are not shown the property.
 */
export function hasNoReader(recipients: { recipients: number; investorRelations: boolean }): boolean {
  return recipients.recipients === 0 || !recipients.investorRelations;
}
