// The two CSV files an administrator uploads, the bulk document upload's manifest and the bulk
// user import: their columns, their largest size and row count, their templates' names and the
// defaults of the import.

import type { AssignableRole, DocumentCategory, DuplicateHandling } from './enums';
import { megabyte } from './limits';

// ---- Bulk document upload manifest ---------------------------------------------------------

/** The manifest of a bulk document upload is a small CSV too. */
export const maxManifestCsvBytes = 5 * megabyte;

/** Bulk document upload manifest: its columns, and the CSV row number of its first data row. */
export const manifestColumns = ['email', 'filename', 'document_category', 'title'] as const;
export const firstCsvDataRow = 2;
export const bulkUploadTemplateFilename = 'bulk-upload-template.csv';

/** Categories the bulk document instructions mention. */
export const bulkUploadInstructionCategories: readonly DocumentCategory[] = ['tax', 'personal', 'legal'];

// ---- Bulk user import ----------------------------------------------------------------------

export const maxImportCsvBytes = 5 * megabyte;
export const defaultImportRole: AssignableRole = 'user';
export const defaultDuplicateHandling: DuplicateHandling = 'skip';

/** The columns of the bulk user import CSV, in the template's order. */
export const importColumns = [
  'email',
  'firstName',
  'lastName',
  'entity',
  'role',
  'propertyAccess',
  'streetAddress',
  'city',
  'state',
  'zipCode',
  'identifiers',
] as const;
/** What separates an `identifiers` cell's identifiers: a comma is part of many trusts' names. */
export const importIdentifierSeparator = ';';
export type ImportColumn = (typeof importColumns)[number];
export const bulkImportTemplateFilename = 'bulk-user-import-template.csv';

export const recommendedImportBatch = { min: 100, max: 500 } as const;
export const firstTestImportBatch = { min: 5, max: 10 } as const;
/** Above this many users the instructions suggest turning welcome e-mails off. */
export const welcomeEmailWarningThreshold = 100;
/** A 5 MB CSV of short rows holds tens of thousands; more than this is refused as one request. */
export const maxImportRows = 10_000;
