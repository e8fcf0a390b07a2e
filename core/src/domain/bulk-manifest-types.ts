// The terms of a bulk publication's dry run: the manifest's columns, the sentences its rows
// are refused with, and the shapes the plan takes in and gives back (bulk-manifest.ts plans,
// bulk-manifest-row.ts decides one row).

import { documentCategories, type DocumentCategory } from './enums';
import { fieldMax } from './limits';
import { publishingMessages, type CsvDelimiter, type CsvEncoding, type Period, type PublishedIdentity } from './publishing';

/** The manifest's required columns (spec section 5), then the optional ones. */
export const manifestRequiredColumns = ['email', 'filename', 'document_category', 'title'] as const;
export const manifestOptionalColumns = ['description', 'document_date', 'tags', 'correction_note'] as const;

/** Row sentences beyond the spec's three (which live in portalMessages). */
export const bulkManifestMessages = {
  fileMissing: 'File not found among the selected files',
  badCategory: `Invalid document category (${documentCategories.join(', ')})`,
  badDocumentDate: 'Invalid document date (use YYYY-MM-DD)',
  alreadyPublished: 'Already published for this investor with the same content',
  duplicateRow: 'Listed more than once for this investor',
  /** The row names a copy of a file another row publishes to the same investor (originalOfTwins). */
  twinOf: publishingMessages.twinForInvestor,
  titleUsed: 'Title already used by another document for this investor in this period',
  titleTooLong: publishingMessages.titleTooLong,
  descriptionTooLong: `Description is too long (at most ${fieldMax.description} characters)`,
  tagsTooLong: `Tags are too long (at most ${fieldMax.tags} characters)`,
  correctionNoteTooLong: `Correction note is too long (at most ${fieldMax.correctionNote} characters)`,
  /** A deactivated account cannot sign in to read what is published to it. */
  deactivated: (email: string) => `The account ${email} is deactivated: nobody could read this document. Reactivate it first, or remove the row.`,
  /**
   * A row naming a document the investor already has (the same title, category and period): it
   * publishes a corrected version of that document. Names it exactly, as the investor sees it.
   */
  corrects: publishingMessages.corrects,
} as const;

/** A selected file as both sides know it; the browser may not have hashed it yet. */
export interface ManifestFile {
  name: string;
  size: number;
  sha256?: string;
  /**
   * Why the portal refuses this file, from documentRefusal with its first bytes (or the server's
   * own check), computed by the caller that has the bytes. Without it the plan still checks the
   * name and the size.
   */
  refusal?: string;
}

export interface BulkManifestInput {
  /**
   * The manifest's text. A caller holding the file's bytes decodes them with decodeCsvBytes and
   * passes its `encoding` along, which the plan reports back.
   */
  csvText: string;
  /** How csvText was decoded (decodeCsvBytes); 'utf-8' when not given. */
  encoding?: CsvEncoding;
  files: readonly ManifestFile[];
  /** Lower-cased e-mail → user id, for the e-mails of the manifest the caller knows. */
  usersByEmail: ReadonlyMap<string, number>;
  /** User id → sha256 of the contents already published for that investor, when known. */
  publishedHashes?: ReadonlyMap<number, ReadonlySet<string>>;
  /**
   * User id → the documents that investor already has, when known. A row naming one of them (the
   * same title, category and period: documentIdentityKey) corrects that document.
   */
  publishedDocuments?: ReadonlyMap<number, readonly PublishedIdentity[]>;
  /**
   * The ids of usersByEmail whose accounts are deactivated, when known: their rows are refused,
   * since nobody could read what they publish.
   */
  deactivatedUsers?: ReadonlySet<number>;
  /** The batch's period (its quarter folder, or the form's): for rows without a document_date. */
  period?: Period;
  /** The moment of the upload, whose quarter files a row with neither a date nor a batch period. */
  now?: Date;
}

/** An investor a manifest names, as the server's bulk-upload-preview describes them. */
export interface KnownInvestor {
  email: string;
  userId: number;
  /** Which of the asked hashes they already have. */
  publishedSha256: readonly string[];
  documents: readonly PublishedIdentity[];
  active: boolean;
}

/** What planBulkManifest needs of the investors, from bulk-upload-preview's answer: every dry run reads it so. */
export function manifestKnowledgeOf(
  users: readonly KnownInvestor[],
): Pick<BulkManifestInput, 'usersByEmail' | 'publishedHashes' | 'publishedDocuments' | 'deactivatedUsers'> {
  return {
    usersByEmail: new Map(users.map((u) => [u.email.toLowerCase(), u.userId])),
    publishedHashes: new Map(users.map((u) => [u.userId, new Set(u.publishedSha256)])),
    publishedDocuments: new Map(users.map((u) => [u.userId, u.documents])),
    deactivatedUsers: new Set(users.filter((u) => !u.active).map((u) => u.userId)),
  };
}

/** What the row would publish, with its fields cleaned. */
export interface ManifestDocument {
  userId: number;
  email: string;
  file: ManifestFile;
  documentCategory: DocumentCategory;
  title: string;
  description: string;
  documentDate: string | null;
  tags: string;
  /** The optional `correction_note` column: why, for the e-mail of a correction ('' for none). */
  correctionNote: string;
  /** Where the document is filed (periodOf): its date's quarter, else the batch's, else the upload's. */
  year: number;
  quarter: Period['quarter'];
}

export type ManifestRowPlan =
  | ({
      row: number;
      filename: string;
      outcome: 'publish';
      /**
       * The investor already has this document (the same title in any letter case, category and
       * period): the row publishes a corrected version of it, not a second document. That
       * document; null otherwise.
       */
      corrects: PublishedIdentity | null;
    } & ManifestDocument)
  | ({ row: number; filename: string; outcome: 'already-published'; error: string } & ManifestDocument)
  | {
      row: number;
      /** As the CSV wrote it ('' when absent), so a failure can be shown against its file. */
      filename: string;
      outcome:
        | 'missing-fields'
        | 'user-not-found'
        | 'user-deactivated'
        | 'bad-category'
        | 'bad-field'
        | 'file-missing'
        | 'file-refused'
        | 'duplicate-row'
        | 'title-used';
      error: string;
    };

export type ManifestOutcome = ManifestRowPlan['outcome'];

export interface BulkManifestPlan {
  /**
   * Set when nothing of the manifest may be published, and rows is then empty: it has no data
   * row ('No data found in CSV'), or it cannot be read safely ('Line 2: a quoted field is not
   * closed.'): an unclosed quote, a row with the wrong number of fields, a field spanning lines.
   */
  error: string | null;
  /** The encoding the manifest was read in (as the caller decoded it), to show staff. */
  encoding: CsvEncoding;
  /** The delimiter read from the header line. */
  delimiter: CsvDelimiter;
  rows: ManifestRowPlan[];
  /** Selected files no row names (and not claimed by any row), in selection order. */
  unprocessed: string[];
  counts: Record<ManifestOutcome, number>;
  /** How many of the 'publish' rows correct a document the investor has. */
  corrections: number;
}

/** One data row of the manifest: its cells by lower-cased column name. */
export type ManifestRecord = Record<string, string | undefined>;
