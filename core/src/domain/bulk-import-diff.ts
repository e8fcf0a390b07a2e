// What importing a row would change for a user who already exists: the preview lists it, the
// import applies exactly it, so the two cannot disagree. An empty cell leaves a field as it is
// (a spreadsheet with only the new properties filled in must not wipe addresses), and property
// access is only ever added by an import, never taken away.

import type { FieldChange, ImportStaffRow, StaffChange, StaffRowConfirmation } from '../contract/schemas/bulk-import';
import type { ValidImportRow } from './bulk-import-csv';
import { identifierKey } from './content-matching';
import { roleLabels, type DuplicateHandling, type Role } from './enums';

/** How the preview shows an empty old value. */
export const emptyFieldLabel = '(empty)';

/** The user fields an import row may change, in the preview's order. */
export const importChangeFields = ['firstName', 'lastName', 'entity', 'role', 'streetAddress', 'city', 'state', 'zipCode'] as const;
export type ImportChangeField = (typeof importChangeFields)[number];

/** An existing account as the diff needs it. */
export type ImportExistingUser = Record<Exclude<ImportChangeField, 'role'>, string> & {
  role: Role;
  /** Names of the properties the user can already see. */
  propertyAccess: readonly string[];
  /** The identifiers administrators added (none when left out). */
  identifiers?: readonly string[];
};

export interface ImportRowChanges {
  /** Only the fields whose value changes, from (or '(empty)') and to. */
  changes: Partial<Record<ImportChangeField, FieldChange>>;
  /** The row's properties the user does not have yet. */
  newPropertyAccess: string[];
  /**
   * The row's identifiers the user does not have yet, and the user's the row no longer lists,
   * compared normalized (a new spelling of one they have is no change). Both empty when the cell
   * is empty.
   */
  newIdentifiers: string[];
  removedIdentifiers: string[];
  hasChanges: boolean;
}

/** What a row's identifiers add and remove; nothing when the row has none. */
function identifierChanges(existing: readonly string[], row: readonly string[] | undefined) {
  if (row === undefined) return { newIdentifiers: [], removedIdentifiers: [] };
  const keysOf = (list: readonly string[]) => new Set(list.map((identifier) => identifierKey(identifier)));
  const had = keysOf(existing);
  const wanted = keysOf(row);
  return {
    newIdentifiers: row.filter((identifier) => !had.has(identifierKey(identifier))),
    removedIdentifiers: existing.filter((identifier) => !wanted.has(identifierKey(identifier))),
  };
}

export function bulkImportChanges(existing: ImportExistingUser, row: ValidImportRow): ImportRowChanges {
  const changes: Partial<Record<ImportChangeField, FieldChange>> = {};
  for (const field of importChangeFields) {
    // The role cell left empty means "as it is", not the default role, which is for new users.
    if (field === 'role' && !row.roleGiven) continue;
    const to = row[field];
    const from = existing[field];
    if (to === '' || to === from) continue;
    changes[field] = { from: from === '' ? emptyFieldLabel : from, to };
  }
  const has = new Set(existing.propertyAccess);
  const newPropertyAccess = row.propertyAccess.filter((name) => !has.has(name));
  const identifiers = identifierChanges(existing.identifiers ?? [], row.identifiers);
  const identifiersChange = identifiers.newIdentifiers.length > 0 || identifiers.removedIdentifiers.length > 0;
  return {
    changes,
    newPropertyAccess,
    ...identifiers,
    hasChanges: Object.keys(changes).length > 0 || newPropertyAccess.length > 0 || identifiersChange,
  };
}

// Staff accounts. An import may create administrators and Everest employees (the
// spec's row has a role column), but never unseen: the rows that create one, or that change
// an existing account's role either way, are listed apart and each needs its own confirmation.
// Every role change is one: there are three roles, and each change gives or takes staff rights.

/** Rank of a role, to tell a promotion from a demotion. */
const roleRank: Record<Role, number> = { delegate: 0, user: 0, everest_employee: 1, administrator: 2 };

/** Whether a role is a staff role (an administrator or an Everest employee). */
export const isStaffRole = (role: Role): boolean => role === 'administrator' || role === 'everest_employee';

/**
 * What a valid row does to staff rights: a new account with a staff role, or an existing
 * account's role changed up or down; null for anything else. `existingRole` is null when the
 * row's e-mail names no account. An empty role cell leaves an existing role as it is.
 */
export function staffChangeOf(existingRole: Role | null, row: ValidImportRow): StaffChange | null {
  if (existingRole === null) return isStaffRole(row.role) ? 'new' : null;
  if (!row.roleGiven || row.role === existingRole) return null;
  // A delegate made an investor gains no staff rights.
  if (!isStaffRole(row.role) && !isStaffRole(existingRole)) return null;
  return roleRank[row.role] > roleRank[existingRole] ? 'promoted' : 'demoted';
}

/** The preview's staff row of a valid row, or null when it is none. */
export function importStaffRow(existingRole: Role | null, row: ValidImportRow): ImportStaffRow | null {
  const change = staffChangeOf(existingRole, row);
  if (change === null) return null;
  const { line, email, firstName, lastName, entity, role } = row;
  return { row: line, email, firstName, lastName, entity, role, previousRole: existingRole, change };
}

/**
 * The staff rows an import with this duplicate handling would write: new accounts always, role
 * changes of existing accounts only when existing users are updated ('skip' leaves them as they
 * are, 'fail' stops at the first one). These are the rows that must be confirmed.
 */
export function staffRowsToConfirm<T extends Pick<ImportStaffRow, 'change'>>(rows: readonly T[], duplicateHandling: DuplicateHandling): T[] {
  return duplicateHandling === 'update' ? [...rows] : rows.filter((row) => row.change === 'new');
}

/** The confirmation of a staff row as the import request carries it. */
export const staffRowConfirmationOf = (row: Pick<ImportStaffRow, 'email' | 'role'>): StaffRowConfirmation => ({ email: row.email, role: row.role });

/** The rows no confirmation names with the same e-mail and role: a changed role needs a new confirmation. */
export function unconfirmedStaffRows<T extends Pick<ImportStaffRow, 'email' | 'role'>>(
  rows: readonly T[],
  confirmed: readonly StaffRowConfirmation[],
): T[] {
  const keys = new Set(confirmed.map((c) => `${c.email.trim().toLowerCase()}\u0000${c.role}`));
  return rows.filter((row) => !keys.has(`${row.email}\u0000${row.role}`));
}

/** How a staff row's change reads: 'Administrator, new account', 'Investor → Administrator, promoted'. */
export function staffChangeLabel(row: Pick<ImportStaffRow, 'role' | 'previousRole' | 'change'>): string {
  if (row.change === 'new' || row.previousRole === null) return `${roleLabels[row.role]}, new account`;
  return `${roleLabels[row.previousRole]} → ${roleLabels[row.role]}, ${row.change}`;
}

/** Rows named in a refusal; past it, 'and N more'. */
const namedStaffRows = 5;

export const staffImportMessages = {
  /** The import's 409 when staff rows were not confirmed: names the rows, says nothing was done. */
  notConfirmed: (rows: readonly Pick<ImportStaffRow, 'row' | 'email' | 'role' | 'previousRole' | 'change'>[]) => {
    const named = rows.slice(0, namedStaffRows).map((r) => `row ${r.row}, ${r.email} (${staffChangeLabel(r)})`);
    const more = rows.length > named.length ? `, and ${rows.length - named.length} more` : '';
    return `${rows.length === 1 ? 'This staff row was' : `These ${rows.length} staff rows were`} not confirmed: ${named.join('; ')}${more}. Nothing was imported: preview the file again and confirm the staff accounts.`;
  },
} as const;
