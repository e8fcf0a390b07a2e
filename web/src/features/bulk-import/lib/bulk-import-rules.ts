import type { BulkImportCsvParse, DuplicateHandling } from '@everest/core/domain';
import { bulkImportCsvRow, type BulkImportCsvRow, type ImportPreview, type ImportRowError } from '@everest/core/contract';
import { maxImportCsvBytes, megabyte, portalMessages } from '@everest/core/domain';
import { adminNotices } from '../../../lib/admin/admin-messages';
import type { FileProblem } from '../../../lib/admin/document-rules';

/**
 * The import file is checked when chosen, before it is read: CSV only (by name, since Excel and
 * browsers disagree on a CSV's type) and at most 5 MB (spec section 9). The server checks again.
 */
export function checkImportFile(file: Pick<File, 'name' | 'size'>): FileProblem | null {
  if (!file.name.toLowerCase().endsWith('.csv')) {
    return { title: portalMessages.csvPreviewError, description: `${file.name} is not a CSV file. Please choose a .csv file.` };
  }
  if (file.size > maxImportCsvBytes) {
    return {
      title: adminNotices.fileTooLarge,
      description: `${file.name} is larger than ${maxImportCsvBytes / megabyte} MB. Please split it into smaller files.`,
    };
  }
  return null;
}

/** Existing users whose row really changes something (the server lists only those; this keeps to it). */
export function changedExistingUsers(preview: ImportPreview): ImportPreview['existingUsers'] {
  return preview.existingUsers.filter(
    (u) =>
      u.hasChanges &&
      (Object.keys(u.changes).length > 0 || u.newPropertyAccess.length > 0 || u.newIdentifiers.length > 0 || u.removedIdentifiers.length > 0),
  );
}

/**
 * Whether Confirm & Import Users would change anything: new users, or changed existing users
 * that the chosen duplicate handling applies. 'skip' leaves existing users alone, so a file of
 * only changed existing users changes nothing under it.
 */
export function importWouldChange(preview: ImportPreview, duplicateHandling: DuplicateHandling): boolean {
  if (preview.newUsers.length > 0) return true;
  return duplicateHandling === 'update' && changedExistingUsers(preview).length > 0;
}

/** Why Confirm & Import Users is disabled, said beside it. */
export function nothingToImportReason(preview: ImportPreview, duplicateHandling: DuplicateHandling): string {
  if (changedExistingUsers(preview).length > 0 && duplicateHandling !== 'update') {
    return "Nothing would change: there are no new users, and existing users are left as they are unless Duplicate handling is 'Update existing users'.";
  }
  return 'Nothing would change: there are no new users and no changes to existing users.';
}

const shown = (value: string | null) => (value === null || value === '' ? '(empty)' : value);

/** One changed field as the preview says it: 'city: (empty) → Pasadena'. */
export function changeLine(field: string, change: { from: string | null; to: string | null }): string {
  return `${field}: ${shown(change.from)} → ${shown(change.to)}`;
}

/** The browser's and the server's row errors as one list in file order, each line once per message. */
export function mergeRowErrors(...lists: (readonly ImportRowError[])[]): ImportRowError[] {
  const seen = new Set<string>();
  const merged: ImportRowError[] = [];
  for (const e of lists.flat()) {
    const key = `${e.row}\u0000${e.error}`;
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(e);
  }
  return merged.sort((a, b) => a.row - b.row);
}

/** '1 user' / '2 users'. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/**
 * What goes to the server: every row as read, valid or not, so that its answer (the counts, the
 * lists, the errors with their lines, and the import's failed rows) covers the whole file. A row
 * the contract refuses as a row (a cell over 1000 characters) would make the server refuse the
 * whole request; it stays behind, and its error, found in the browser, is shown with the others.
 */
export function rowsToSend(parse: BulkImportCsvParse): { rows: BulkImportCsvRow[]; heldBack: ImportRowError[] } {
  const rows: BulkImportCsvRow[] = [];
  const heldLines = new Set<number>();
  for (const row of parse.rows) {
    if (bulkImportCsvRow.safeParse(row).success) rows.push(row);
    else if (row.line !== undefined) heldLines.add(row.line);
  }
  return { rows, heldBack: parse.errors.filter((e) => heldLines.has(e.row)) };
}
