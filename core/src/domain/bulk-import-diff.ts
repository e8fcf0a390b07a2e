// What importing a row would change for a user who already exists: the preview lists it, the
// import applies exactly it, so the two cannot disagree. An empty cell leaves a field as it is
// (a spreadsheet with only the new properties filled in must not wipe addresses), and property
// access is only ever added by an import, never taken away.

import type { FieldChange } from '../contract/schemas/bulk-import';
import type { ValidImportRow } from './bulk-import-csv';
import type { Role } from './enums';

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
};

export interface ImportRowChanges {
  /** Only the fields whose value changes, from (or '(empty)') and to. */
  changes: Partial<Record<ImportChangeField, FieldChange>>;
  /** The row's properties the user does not have yet. */
  newPropertyAccess: string[];
  hasChanges: boolean;
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
  return { changes, newPropertyAccess, hasChanges: Object.keys(changes).length > 0 || newPropertyAccess.length > 0 };
}
