import { describe, expect, it } from 'vitest';
import { compareTables, rowsByKey, type TableRows } from './restore-snapshot';

// The restore drill's comparison must find what a bad restore would do: a row lost, a row
// changed, a row the source never had. A comparison that passes everything proves nothing.

const rows = (...list: Record<string, unknown>[]) => rowsByKey(list);
const rules = { appendOnly: new Set(['audit_events']) };

function readings(): { before: TableRows; after: TableRows } {
  const users = rows({ id: 1, email: 'a@example.com' }, { id: 2, email: 'b@example.com' });
  return {
    before: { users, audit_events: rows({ id: 1, action: 'upload-document' }) },
    after: { users, audit_events: rows({ id: 1, action: 'upload-document' }, { id: 2, action: 'download' }, { id: 3, action: 'download' }) },
  };
}

describe('the restore drill compares tables by what the load did to them', () => {
  it('passes a restore that holds what an instant between the two readings held', () => {
    const { before, after } = readings();
    const restored = { users: before.users as Map<string, string>, audit_events: rows({ id: 1, action: 'upload-document' }, { id: 2, action: 'download' }) };
    expect(compareTables(before, after, restored, rules)).toEqual({ mismatches: [], tables: 2, rows: 4 });
  });

  it('finds a row of an untouched table lost, changed or added', () => {
    const { before, after } = readings();
    const audit = after.audit_events as Map<string, string>;
    expect(compareTables(before, after, { users: rows({ id: 1, email: 'a@example.com' }), audit_events: audit }, rules).mismatches).toEqual(['users: 1 rows missing (ids 2)']);
    expect(compareTables(before, after, { users: rows({ id: 1, email: 'a@example.com' }, { id: 2, email: 'c@example.com' }), audit_events: audit }, rules).mismatches).toEqual([
      'users: 1 rows other than the source (ids 2)',
    ]);
    expect(
      compareTables(before, after, { users: rows({ id: 1, email: 'a@example.com' }, { id: 2, email: 'b@example.com' }, { id: 9, email: 'x@example.com' }), audit_events: audit }, rules)
        .mismatches,
    ).toEqual(['users: 1 rows the source never had (ids 9)']);
  });

  it('finds an append-only table missing a row from before the backup, or holding one the source has not', () => {
    const { before, after } = readings();
    const users = before.users as Map<string, string>;
    expect(compareTables(before, after, { users, audit_events: rows({ id: 2, action: 'download' }) }, rules).mismatches).toEqual([
      'audit_events: 1 rows missing that were there before the backup began (ids 1)',
    ]);
    expect(compareTables(before, after, { users, audit_events: rows({ id: 1, action: 'upload-document' }, { id: 4, action: 'download' }) }, rules).mismatches).toEqual([
      'audit_events: 1 rows the source does not have (ids 4)',
    ]);
  });

  it('refuses to guess about a table the load changed in place that no rule covers', () => {
    const { before, after } = readings();
    const changed = { ...after, users: rows({ id: 1, email: 'a@example.com' }, { id: 2, email: 'new@example.com' }) };
    expect(compareTables(before, changed, { ...changed }, rules).mismatches).toEqual(['users: changed during the load (2 rows before, 2 after) and no rule says how to compare it']);
  });

  it('holds a table the caller worked out to exactly that', () => {
    const { before, after } = readings();
    const restored = { users: before.users as Map<string, string>, audit_events: before.audit_events as Map<string, string>, document_reads: rows({ id: 1, opens: 2 }) };
    const exact = { document_reads: rows({ id: 1, opens: 1 }) };
    expect(compareTables(before, after, restored, { ...rules, exact }).mismatches).toEqual(['document_reads: 1 rows other than in the snapshot (ids 1)']);
  });

  it('names a table the restore lacks', () => {
    const { before, after } = readings();
    expect(compareTables(before, after, { users: before.users as Map<string, string> }, rules).mismatches).toEqual(['table audit_events is missing from the restored database']);
  });
});
