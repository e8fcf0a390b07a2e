import { z } from 'zod';
import { assignableRoles, duplicateHandlings, roles, type Role } from '../../domain/enums';
import { fieldMax, maxAddedIdentifiers } from '../../domain/limits';
import { importIdentifierSeparator, maxImportRows } from '../../domain/csv-columns';
import { identifierKey } from '../../domain/content-matching';
import { portalMessages } from '../../domain/messages';
import { emailAddress, identifierText, nameText, optionalText } from './fields';

// The import travels as rows the client parsed from the CSV. A request is refused only when it
// is not a list of rows at all; a bad row is reported in the preview (with its CSV row number)
// and skipped, as the spec's 'Errors (will be skipped)' list says.

const cell = z.string({ error: 'Every CSV cell must be text.' }).max(1000, 'A CSV cell must be 1000 characters or fewer.').optional();

/** Room for every identifier an investor may have, with its separator. */
const identifiersCellMax = (fieldMax.identifier + 1) * maxAddedIdentifiers;

/** One CSV row as parsed, header names as keys; unknown columns are dropped. */
export const bulkImportCsvRow = z.object({
  /**
   * decided: the line of the file the row starts on (header = line 1, blank lines counted), so
   * that the server's row errors point at the file; without it a row is numbered by its place.
   */
  line: z.number({ error: 'A row line must be a number.' }).int().positive().optional(),
  email: cell,
  firstName: cell,
  lastName: cell,
  entity: cell,
  role: cell,
  /** Comma-separated names in the CSV; a list is accepted too. */
  propertyAccess: z
    .union([z.string().max(1000, 'A CSV cell must be 1000 characters or fewer.'), z.array(z.string().max(fieldMax.propertyName))], {
      error: 'Property access must be a comma-separated list of property names.',
    })
    .optional(),
  streetAddress: cell,
  city: cell,
  state: cell,
  zipCode: cell,
  /** The identifiers administrators add, separated by ';' in the CSV; a list is accepted too. */
  identifiers: z
    .union([z.string().max(identifiersCellMax, `The identifiers cell must be ${identifiersCellMax} characters or fewer.`), z.array(z.string().max(fieldMax.identifier))], {
      error: 'Identifiers must be a list separated by semicolons.',
    })
    .optional(),
});
export type BulkImportCsvRow = z.infer<typeof bulkImportCsvRow>;

const csvData = z
  .array(bulkImportCsvRow, { error: 'Please send the rows of the CSV file.' })
  .min(1, portalMessages.noDataInCsv)
  .max(maxImportRows, `Please import at most ${maxImportRows} users at a time.`);

const defaultRole = z.enum(assignableRoles, { error: 'Please choose a default role.' }).default('user');

export const previewBulkImportBody = z.object({ csvData, defaultRole });
export type PreviewBulkImportBody = z.infer<typeof previewBulkImportBody>;

/**
 * A row that creates a staff account (administrator or Everest employee) or changes an
 * existing account's role. The preview lists these apart; the import writes them only when the
 * request confirms each one by its e-mail and new role, so that a file changed after its preview
 * cannot slip another staff account (or another role) in under an earlier confirmation.
 */
export const staffChanges = ['new', 'promoted', 'demoted'] as const;
export type StaffChange = (typeof staffChanges)[number];

export const importStaffRow = z.object({
  /** The file line of the row. */
  row: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  entity: z.string(),
  /** The role the row gives. */
  role: z.enum(assignableRoles),
  /** The account's role before the import; null for a new account. */
  previousRole: z.enum(roles).nullable(),
  change: z.enum(staffChanges),
});
export type ImportStaffRow = z.infer<typeof importStaffRow>;

/** One staff row the administrator confirmed: its e-mail and the role it was shown with. */
export const staffRowConfirmation = z.object(
  {
    email: z
      .string({ error: 'A confirmed staff row needs its email.' })
      .trim()
      .toLowerCase()
      .max(fieldMax.email, `A confirmed staff row's email must be ${fieldMax.email} characters or fewer.`),
    role: z.enum(assignableRoles, { error: 'A confirmed staff row needs its role: user, everest_employee or administrator.' }),
  },
  { error: 'Each confirmed staff row is an email and a role.' },
);
export type StaffRowConfirmation = z.infer<typeof staffRowConfirmation>;

export const bulkImportUsersBody = z.object({
  csvData,
  defaultRole,
  /** The staff rows of the preview the administrator confirmed (none by default). */
  confirmedStaffRows: z
    .array(staffRowConfirmation, { error: 'Confirmed staff rows must be a list of emails and roles.' })
    .max(maxImportRows, `Please confirm at most ${maxImportRows} staff rows at a time.`)
    .default([]),
  duplicateHandling: z
    .enum(duplicateHandlings, { error: 'Please choose how to handle duplicates: skip, update or fail.' })
    .default('skip'),
  sendWelcomeEmails: z.boolean({ error: 'Send welcome emails must be yes or no.' }).default(false),
  sendUpdateEmails: z.boolean({ error: 'Send update emails must be yes or no.' }).default(false),
});
export type BulkImportUsersBody = z.infer<typeof bulkImportUsersBody>;

/** Property names of a row: split on commas, trimmed, empty and repeated names dropped. */
export function splitPropertyAccess(value: string | readonly string[] | undefined): string[] {
  const names = typeof value === 'string' ? value.split(',') : (value ?? []);
  return [...new Set(names.map((name) => name.trim()).filter(Boolean))];
}

/** Identifiers of a row: split on ';', trimmed, empty ones dropped (an empty cell is no list at all). */
export function splitIdentifiers(value: string | readonly string[] | undefined): string[] | undefined {
  const identifiers = (typeof value === 'string' ? value.split(importIdentifierSeparator) : (value ?? [])).map((i) => i.trim()).filter(Boolean);
  return identifiers.length === 0 ? undefined : identifiers;
}

/** The first spelling of each identifier, as edit-user keeps them: "Smith Trust" and "SMITH TRUST." are one. */
function firstOfEachKey(identifiers: readonly string[]): string[] {
  const seen = new Set<string>();
  return identifiers.filter((identifier) => {
    const key = identifierKey(identifier) ?? '';
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A row as the import applies it; its messages are the preview's row errors. */
export function bulkImportRow(fallbackRole: Role) {
  return z
    .object({
      email: emailAddress('Email is required.', 'Email is not a valid email address.'),
      firstName: nameText('First name', fieldMax.name).transform((v) => v ?? ''),
      lastName: nameText('Last name', fieldMax.name).transform((v) => v ?? ''),
      entity: nameText('Entity', fieldMax.entity).transform((v) => v ?? ''),
      role: z
        .string()
        .optional()
        .transform((v) => v?.trim().toLowerCase() || fallbackRole)
        .pipe(z.enum(assignableRoles, { error: 'Role must be user, everest_employee or administrator.' })),
      propertyAccess: z
        .union([z.string(), z.array(z.string())])
        .optional()
        .transform((v) => splitPropertyAccess(v)),
      streetAddress: optionalText('Street address', fieldMax.streetAddress).transform((v) => v ?? ''),
      city: optionalText('City', fieldMax.city).transform((v) => v ?? ''),
      state: optionalText('State', fieldMax.state).transform((v) => v ?? ''),
      zipCode: optionalText('ZIP code', fieldMax.zipCode).transform((v) => v ?? ''),
      /**
       * Given, they replace an existing user's added identifiers as edit-user's do; an empty cell
       * (undefined) leaves them as they are.
       */
      identifiers: z
        .union([z.string(), z.array(z.string())])
        .optional()
        .transform((v) => splitIdentifiers(v))
        .pipe(
          z
            .array(identifierText())
            .max(maxAddedIdentifiers, `An investor can have at most ${maxAddedIdentifiers} added identifiers.`)
            .transform(firstOfEachKey)
            .optional(),
        ),
    })
    .refine((row) => (row.firstName !== '' && row.lastName !== '') || row.entity !== '', {
      error: 'Either firstName and lastName, or entity, is required.',
    });
}
export type BulkImportRow = z.infer<ReturnType<typeof bulkImportRow>>;

/** A row that will be skipped, with its CSV line number (the header is line 1, the first data row 2). */
export const importRowError = z.object({
  error: z.string(),
  row: z.number().int(),
  /** The cell the error is about, as read (shortened, control characters shown as '�'), when one is. */
  value: z.string().optional(),
});
export type ImportRowError = z.infer<typeof importRowError>;

export const fieldChange = z.object({ from: z.string().nullable(), to: z.string().nullable() });
export type FieldChange = z.infer<typeof fieldChange>;

export const importPreview = z.object({
  newUsers: z.array(
    z.object({
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      entity: z.string(),
      /** decided: the role the new account gets, so that no administrator is created unseen. */
      role: z.enum(roles),
      propertyAccess: z.array(z.string()),
      /** The identifiers the new account is given, as typed. */
      identifiers: z.array(z.string()),
    }),
  ),
  /** Only existing users with changes are listed. */
  existingUsers: z.array(
    z.object({
      email: z.string(),
      hasChanges: z.boolean(),
      /** Field name to its old and new value; an empty old value shows as '(empty)'. */
      changes: z.record(z.string(), fieldChange),
      newPropertyAccess: z.array(z.string()),
      /** Identifiers the row adds, and those it no longer lists (its cell replaces the list, as edit-user does). */
      newIdentifiers: z.array(z.string()),
      removedIdentifiers: z.array(z.string()),
    }),
  ),
  errors: z.array(importRowError),
  /** The rows that create a staff account or change a role, listed apart, in file order. */
  staffRows: z.array(importStaffRow),
});
export type ImportPreview = z.infer<typeof importPreview>;

export const previewBulkImportAnswer = z.object({
  success: z.boolean(),
  preview: importPreview,
  error: z.string().optional(),
});
export type PreviewBulkImportAnswer = z.infer<typeof previewBulkImportAnswer>;

export const importResults = z.object({
  imported: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  /** Existing e-mails left alone. */
  skipped: z.number().int().nonnegative(),
  /** Rows with invalid data. */
  failed: z.number().int().nonnegative(),
  emailsSent: z.number().int().nonnegative(),
  propertyUpdateEmailsSent: z.number().int().nonnegative(),
  /** decided: the failed rows with their reasons, so the results panel can say why. */
  errors: z.array(importRowError),
});
export type ImportResults = z.infer<typeof importResults>;

export const bulkImportUsersAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  results: importResults,
  error: z.string().optional(),
});
export type BulkImportUsersAnswer = z.infer<typeof bulkImportUsersAnswer>;
