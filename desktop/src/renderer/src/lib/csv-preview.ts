import type { ImportRowError, ImportStaffRow, User, UserPropertyLink } from '@everest/core/contract';
import {
  bulkImportChanges,
  importStaffRow,
  parseBulkImportCsv,
  type CsvDelimiter,
  type CsvEncoding,
  type ImportRowChanges,
  type ValidImportRow,
} from '@everest/core/domain';

export interface CsvPreview {
  /** A sentence when the file as a whole cannot be imported. */
  error: string | null;
  encoding: CsvEncoding;
  delimiter: CsvDelimiter;
  rowsRead: number;
  newUsers: ValidImportRow[];
  changed: { row: ValidImportRow; changes: ImportRowChanges }[];
  unchanged: ValidImportRow[];
  errors: ImportRowError[];
  /**
   * Rows that create an administrator or employee, or change an existing account's role (the
   * server's preview lists the same, and the import asks to confirm each one): a CSV must not
   * hand out staff access unseen.
   */
  staffRows: ImportStaffRow[];
}

/**
 * A bulk user import CSV read and checked on this machine with core's reader (the server's own
 * function), then compared with the server's users: nothing is sent, only read.
 */
export function previewImportCsv(
  bytes: Uint8Array,
  server: { users: readonly User[]; userProperties: readonly UserPropertyLink[]; investorPropertyNames: readonly string[] },
): CsvPreview {
  const parsed = parseBulkImportCsv(bytes, { knownPropertyNames: server.investorPropertyNames });
  const accessByUser = new Map<number, string[]>();
  for (const link of server.userProperties) accessByUser.set(link.userId, [...(accessByUser.get(link.userId) ?? []), link.property]);
  const byEmail = new Map(server.users.map((user) => [user.email.toLowerCase(), user]));

  const preview: CsvPreview = {
    error: parsed.error,
    encoding: parsed.encoding,
    delimiter: parsed.delimiter,
    rowsRead: parsed.rows.length,
    newUsers: [],
    changed: [],
    unchanged: [],
    errors: parsed.errors,
    staffRows: [],
  };
  for (const row of parsed.valid) {
    const existing = byEmail.get(row.email.toLowerCase());
    const staff = importStaffRow(existing?.role ?? null, row);
    if (staff) preview.staffRows.push(staff);
    if (!existing) {
      preview.newUsers.push(row);
      continue;
    }
    const changes = bulkImportChanges({ ...existing, propertyAccess: accessByUser.get(existing.id) ?? [] }, row);
    if (changes.hasChanges) preview.changed.push({ row, changes });
    else preview.unchanged.push(row);
  }
  return preview;
}
