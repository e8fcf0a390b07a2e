import { describe, expect, it } from 'vitest';
import { validateBulkImportRows } from './bulk-import-csv';
import { bulkImportChanges, type ImportExistingUser } from './bulk-import-diff';

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
      hasChanges: true,
    });
  });

  it('leaves a field as it is when its cell is empty, the role included (the default role is for new users)', () => {
    expect(bulkImportChanges(existing, row({ entity: 'Lee Trust' }))).toEqual({
      changes: { entity: { from: '(empty)', to: 'Lee Trust' } },
      newPropertyAccess: [],
      hasChanges: true,
    });
    expect(bulkImportChanges(existing, row({ firstName: 'Ann', lastName: 'Lee' })).hasChanges).toBe(false);
    expect(bulkImportChanges(existing, row({ firstName: 'Ann', lastName: 'Lee', role: 'everest_employee' })).changes).toEqual({
      role: { from: 'user', to: 'everest_employee' },
    });
  });

  it('adds only property access the user does not have, and never takes any away', () => {
    const result = bulkImportChanges(existing, row({ entity: '', firstName: 'Ann', lastName: 'Lee', propertyAccess: 'Heartland Plaza, Aspen Ridge' }));
    expect(result).toEqual({ changes: {}, newPropertyAccess: ['Heartland Plaza'], hasChanges: true });
  });
});
