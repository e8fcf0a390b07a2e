// Business constants of both specs (section 9 of each, plus the public site's contact and map
// figures). Every number the product relies on lives here, so that the server, the web app and
// the desktop app cannot disagree.

import type { AssignableRole, DocumentCategory, DuplicateHandling, PropertyType, Quarter } from './enums';

// ---- Time ----------------------------------------------------------------------------------

/** Timestamps are stored in UTC and shown in this zone. */
export const timeZone = 'America/Los_Angeles';

/** The calendar year in the firm's time zone (Pasadena), so that every part agrees at New Year. */
export function currentYear(now: Date = new Date()): number {
  const year = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' }).format(now);
  return Number(year);
}

// ---- Documents -----------------------------------------------------------------------------

export const firstDocumentYear = 2014;

/**
 * The years a document may be filed under, newest first: 2014 through the current year
 * (DECISIONS.md; the spec's "2014-2025" was written in 2025).
 */
export function documentYears(now: Date = new Date()): number[] {
  const years: number[] = [];
  for (let year = currentYear(now); year >= firstDocumentYear; year -= 1) years.push(year);
  return years;
}

/** A new upload is filed under the current year unless the administrator chooses another. */
export function defaultUploadYear(now: Date = new Date()): number {
  return currentYear(now);
}

/** The spec's year for a document that carries none (grouping of older data). */
export const missingDocumentYear = 2025;
export const defaultQuarter: Quarter = 'Q1';
/** Quarters are shown newest first: Q4, Q3, Q2, Q1. */
export const quarterOrder: readonly Quarter[] = ['Q4', 'Q3', 'Q2', 'Q1'];
/** Documents that belong to no property are grouped and filed under this name. */
export const defaultPropertyGroup = 'General';

export const megabyte = 1024 * 1024;
export const maxDocumentBytes = 10 * megabyte;
export const maxImageBytes = 10 * megabyte;
export const maxImportCsvBytes = 5 * megabyte;
/** The manifest of a bulk document upload is a small CSV too. */
export const maxManifestCsvBytes = 5 * megabyte;

export const acceptedDocumentExtensions = ['.pdf', '.doc', '.docx', '.xls', '.xlsx'] as const;
export type DocumentExtension = (typeof acceptedDocumentExtensions)[number];
export const documentMimeTypes: Record<DocumentExtension, string> = {
  '.pdf': 'application/pdf',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
export const acceptedDocumentMimeTypes: readonly string[] = Object.values(documentMimeTypes);
/** The `accept` attribute of a document file input. */
export const documentAccept = acceptedDocumentExtensions.join(',');

/** The accepted extension a file name ends in (any case), or null. */
export function documentExtensionOf(filename: string): DocumentExtension | null {
  const lower = filename.toLowerCase();
  return acceptedDocumentExtensions.find((extension) => lower.endsWith(extension)) ?? null;
}

/** True when the file name ends in one of the accepted document extensions (any case). */
export function isAcceptedDocumentName(filename: string): boolean {
  return documentExtensionOf(filename) !== null;
}

export const acceptedImageMimeTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const imageAccept = 'image/*';

/** Bulk document upload manifest: its columns, and the CSV row number of its first data row. */
export const manifestColumns = ['email', 'filename', 'document_category', 'title'] as const;
export const firstCsvDataRow = 2;
export const bulkUploadTemplateFilename = 'bulk-upload-template.csv';

/** Categories the bulk document instructions mention. */
export const bulkUploadInstructionCategories: readonly DocumentCategory[] = ['tax', 'personal', 'legal'];

// ---- Users and import ----------------------------------------------------------------------

export const pageSize = 10;
/** The largest page a paged list answers, whatever the caller asks. */
export const maxPageSize = 100;

export const defaultRole: AssignableRole = 'user';
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
] as const;
export type ImportColumn = (typeof importColumns)[number];
export const bulkImportTemplateFilename = 'bulk-user-import-template.csv';

export const recommendedImportBatch = { min: 100, max: 500 } as const;
export const firstTestImportBatch = { min: 5, max: 10 } as const;
/** Above this many users the instructions suggest turning welcome e-mails off. */
export const welcomeEmailWarningThreshold = 100;
/** A 5 MB CSV of short rows holds tens of thousands; more than this is refused as one request. */
export const maxImportRows = 10_000;

// ---- Text fields ---------------------------------------------------------------------------

/** Longest accepted input per field; the database columns have the same sizes. */
export const fieldMax = {
  name: 100,
  /** First name, a space and last name. */
  fullName: 201,
  entity: 200,
  email: 254,
  streetAddress: 200,
  city: 100,
  state: 50,
  zipCode: 20,
  phone: 40,
  website: 500,
  imagePath: 500,
  propertyName: 200,
  title: 200,
  filename: 255,
  description: 2000,
  tags: 500,
  /** Why a document was corrected, told to its readers in the correction's e-mail (issue 21). */
  correctionNote: 500,
  subject: 200,
  message: 5000,
  captchaToken: 10_000,
  password: 128,
  resetToken: 200,
  search: 200,
  /** Street, city, state and ZIP of one property, as Get Coordinates sends them. */
  geocodeQuery: 400,
} as const;

// ---- Passwords -----------------------------------------------------------------------------

export const passwordMinLength = 8;
export const passwordSpecials = '@$!%*?&';
/** A password reset link works once, for this long (DESIGN.md). */
export const passwordResetTokenLifetimeMs = 60 * 60 * 1000;

// ---- Properties and maps -------------------------------------------------------------------

/**
 * The property types offered as investments, in the order of the list's groups with filter
 * 'all': the spec's three, then an active mixed-use or other property, an investment too, in a
 * group of its own rather than vanish from the site (web/README). The firm's own headquarters is
 * not one: neither the list nor the home page's carousel shows it (the map does).
 */
export const propertyGroupOrder: readonly PropertyType[] = ['residential', 'self-storage', 'retail', 'mixed-use', 'other'];
/** Geocoded coordinates are kept to this many decimals. */
export const coordinateDecimals = 6;

export const propertyMap = {
  center: [40, -98] as const,
  initialZoom: 4,
  singlePropertyZoom: 10,
  fitPaddingPx: 20,
  markerSizePx: 20,
} as const;

export const markerColors = {
  residential: 'blue',
  'self-storage': 'red',
  retail: 'green',
  headquarters: 'gold',
  sold: 'grey',
} as const;

export const contactMap = { center: [34.14, -118.15] as const, zoom: 11 } as const;

// ---- Public site content -------------------------------------------------------------------

export const transactionCount = 94;
export const teamMemberCount = 10;
