import { describe, expect, it } from 'vitest';
import { validateBulkImportRows } from './bulk-import-csv';
import {
  bulkImportChanges,
  importStaffRow,
  staffImportMessages,
  staffRowsToConfirm,
  unconfirmedStaffRows,
  type ImportExistingUser,
} from './bulk-import-diff';

const existing: ImportExistingUser = {
  firstName: 'Ann',
  lastName: 'Lee',
  entity: '',
  role: 'user',
  streetAddress: '1 Main St.',
  city: 'Pasadena',
  state: 'CA',
  zipCode: '',
  propertyAccess: ['Aspen Ridge'],
};

function row(cells: Record<string, string>) {
  const [valid] = validateBulkImportRows([{ email: 'ann@example.com', ...cells }], { defaultRole: 'administrator' }).valid;
  if (!valid) throw new Error('the test row is not valid');
  return valid;
}

describe('bulkImportChanges', () => {
  it('lists only real changes, an empty old value as (empty)', () => {
    const result = bulkImportChanges(existing, row({ firstName: 'Ann', lastName: 'Lee-Park', zipCode: '91101', city: 'Pasadena' }));
    expect(result).toEqual({
      changes: { lastName: { from: 'Lee', to: 'Lee-Park' }, zipCode: { from: '(empty)', to: '91101' } },
      newPropertyAccess: [],
      newIdentifiers: [],
      removedIdentifiers: [],
      hasChanges: true,
    });
  });

  it('leaves a field as it is when its cell is empty, the role included (the default role is for new users)', () => {
    expect(bulkImportChanges(existing, row({ entity: 'Lee Trust' }))).toEqual({
      changes: { entity: { from: '(empty)', to: 'Lee Trust' } },
      newPropertyAccess: [],
      newIdentifiers: [],
      removedIdentifiers: [],
      hasChanges: true,
    });
    expect(bulkImportChanges(existing, row({ firstName: 'Ann', lastName: 'Lee' })).hasChanges).toBe(false);
    expect(bulkImportChanges(existing, row({ firstName: 'Ann', lastName: 'Lee', role: 'everest_employee' })).changes).toEqual({
      role: { from: 'user', to: 'everest_employee' },
    });
  });

  it('adds only property access the user does not have, and never takes any away', () => {
    const result = bulkImportChanges(existing, row({ entity: '', firstName: 'Ann', lastName: 'Lee', propertyAccess: 'Heartland Plaza, Aspen Ridge' }));
    expect(result).toEqual({ changes: {}, newPropertyAccess: ['Heartland Plaza'], newIdentifiers: [], removedIdentifiers: [], hasChanges: true });
  });

  it('replaces the identifiers when the cell has some, compared normalized, and leaves them when it is empty', () => {
    const identified = { ...existing, identifiers: ['Lee Family Trust', 'XXX-XX-1234'] };
    const names = { firstName: 'Ann', lastName: 'Lee' };
    expect(bulkImportChanges(identified, row({ ...names, identifiers: 'LEE FAMILY TRUST.; 1234' })).hasChanges).toBe(false);
    expect(bulkImportChanges(identified, row(names))).toMatchObject({ newIdentifiers: [], removedIdentifiers: [], hasChanges: false });
    expect(bulkImportChanges(identified, row({ ...names, identifiers: 'Lee Family Trust;Lee Holdings LP' }))).toMatchObject({
      newIdentifiers: ['Lee Holdings LP'],
      removedIdentifiers: ['XXX-XX-1234'],
      hasChanges: true,
    });
    // An account without any, as the desktop's preview may pass it.
    expect(bulkImportChanges(existing, row({ ...names, identifiers: 'Lee Holdings LP' })).newIdentifiers).toEqual(['Lee Holdings LP']);
  });
});

describe('staff rows (issue 33)', () => {
  const valid = (cells: Record<string, string>, defaultRole: 'user' | 'administrator' = 'user') => {
    const [first] = validateBulkImportRows([{ line: 4, email: 'Ann@Example.com', firstName: 'Ann', lastName: 'Lee', ...cells }], { defaultRole }).valid;
    if (!first) throw new Error('the test row is not valid');
    return first;
  };

  it('names a new administrator or employee, by its cell or by the default role, and no new investor', () => {
    expect(importStaffRow(null, valid({ role: 'Administrator' }))).toEqual({
      row: 4,
      email: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
      entity: '',
      role: 'administrator',
      previousRole: null,
      change: 'new',
    });
    expect(importStaffRow(null, valid({ role: 'everest_employee' }))?.change).toBe('new');
    expect(importStaffRow(null, valid({}, 'administrator'))?.role).toBe('administrator');
    expect(importStaffRow(null, valid({}))).toBeNull();
  });

  it('counts every role change of an existing account, up or down, and no empty role cell', () => {
    expect(importStaffRow('user', valid({ role: 'administrator' }))?.change).toBe('promoted');
    expect(importStaffRow('everest_employee', valid({ role: 'administrator' }))?.change).toBe('promoted');
    expect(importStaffRow('administrator', valid({ role: 'user' }))?.change).toBe('demoted');
    expect(importStaffRow('administrator', valid({ role: 'everest_employee' }))?.change).toBe('demoted');
    expect(importStaffRow('administrator', valid({ role: 'administrator' }))).toBeNull();
    // The default role is for new accounts: an existing investor is not promoted by it.
    expect(importStaffRow('user', valid({}, 'administrator'))).toBeNull();
  });

  it("asks to confirm role changes only when existing users are updated", () => {
    const rows = [{ change: 'new' as const }, { change: 'promoted' as const }, { change: 'demoted' as const }];
    expect(staffRowsToConfirm(rows, 'update')).toEqual(rows);
    expect(staffRowsToConfirm(rows, 'skip')).toEqual([{ change: 'new' }]);
    expect(staffRowsToConfirm(rows, 'fail')).toEqual([{ change: 'new' }]);
  });

  it('takes a confirmation only for the same e-mail and the same role', () => {
    const rows = [
      { email: 'ann@example.com', role: 'administrator' as const },
      { email: 'bob@example.com', role: 'everest_employee' as const },
    ];
    expect(unconfirmedStaffRows(rows, [{ email: ' ANN@example.com', role: 'administrator' }])).toEqual([rows[1]]);
    // Confirmed as an employee, the file now says administrator: not confirmed.
    expect(unconfirmedStaffRows(rows, [{ email: 'bob@example.com', role: 'administrator' }, { email: 'ann@example.com', role: 'administrator' }])).toEqual([rows[1]]);
  });

  it('names the unconfirmed rows in the refusal, five of them and a count of the rest', () => {
    const row = (n: number) => ({ row: n, email: `u${n}@example.com`, role: 'administrator' as const, previousRole: null, change: 'new' as const });
    expect(staffImportMessages.notConfirmed([row(3)])).toBe(
      'This staff row was not confirmed: row 3, u3@example.com (Administrator, new account). Nothing was imported: preview the file again and confirm the staff accounts.',
    );
    const message = staffImportMessages.notConfirmed([2, 3, 4, 5, 6, 7, 8].map(row));
    expect(message).toMatch(/^These 7 staff rows were not confirmed: row 2, .*row 6, u6@example\.com \(Administrator, new account\), and 2 more\./);
    expect(
      staffImportMessages.notConfirmed([{ row: 9, email: 'x@example.com', role: 'administrator', previousRole: 'user', change: 'promoted' }]),
    ).toContain('row 9, x@example.com (Investor → Administrator, promoted)');
  });
});
