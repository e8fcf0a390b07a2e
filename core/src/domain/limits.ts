// Business constants of both specs (section 9 of each), kept in one place so that the server,
// the web app and the desktop app cannot disagree: here the units, the paging, the field lengths,
// the password rule's figures and the public site's counts; beside it, one file per subject:
// dates-and-periods.ts (time zone, years, quarters), document-files.ts (sizes, extensions, MIME
// types), csv-columns.ts (the manifest's and the user import's columns) and property-map.ts (the
// maps' views and marker colours).

import type { AssignableRole, PropertyType } from './enums';

export const megabyte = 1024 * 1024;

// ---- Users and lists -----------------------------------------------------------------------

export const pageSize = 10;
/** The largest page a paged list answers, whatever the caller asks. */
export const maxPageSize = 100;

export const defaultRole: AssignableRole = 'user';

/** Identifiers an administrator may add to one investor, besides their name and entity. */
export const maxAddedIdentifiers = 20;

// ---- Text fields ---------------------------------------------------------------------------

/** Longest accepted input per field; the database columns have the same sizes. */
export const fieldMax = {
  name: 100,
  /** First name, a space and last name. */
  fullName: 201,
  entity: 200,
  /** An identifier an administrator adds to an investor, as typed and normalized alike. */
  identifier: 200,
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
  /** Why a document was corrected, told to its readers in the correction's e-mail. */
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

// ---- Public site content -------------------------------------------------------------------

/**
 * The property types offered as investments, in the order of the list's groups with filter
 * 'all': the spec's three, then an active mixed-use or other property, an investment too, in a
 * group of its own rather than vanish from the site (web/README). The firm's own headquarters is
 * not one: neither the list nor the home page's carousel shows it (the map does).
 */
export const propertyGroupOrder: readonly PropertyType[] = ['residential', 'self-storage', 'retail', 'mixed-use', 'other'];

export const transactionCount = 94;
export const teamMemberCount = 10;
