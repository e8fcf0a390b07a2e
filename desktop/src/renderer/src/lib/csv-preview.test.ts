import { describe, expect, it } from 'vitest';
import type { User } from '@everest/core/contract';
import { previewImportCsv } from './csv-preview';

const james: User = {
  id: 7,
  firstName: 'James',
  lastName: 'Carter',
  email: 'investor@example.com',
  entity: '',
  streetAddress: '1840 Oak Grove Ave.',
  city: 'San Marino',
  state: 'CA',
  zipCode: '91108',
  role: 'user',
  isActive: true,
  lastLoginAt: null,
  previousLoginAt: null,
};
const server = {
  users: [james],
  userProperties: [{ userId: 7, property: 'Lakeside Commons' }],
  investorPropertyNames: ['Lakeside Commons', 'Aspen Ridge'],
};
const header = 'email,firstName,lastName,entity,role,propertyAccess,streetAddress,city,state,zipCode';
const bytes = (...lines: string[]) => new TextEncoder().encode([header, ...lines].join('\n'));

describe('the local CSV preview', () => {
  it('tells new users, changed and unchanged existing ones (any letter case), and errors with their file line', () => {
    const preview = previewImportCsv(
      bytes(
        'new@example.com,Nina,New,,user,,,,,',
        'INVESTOR@example.com,James,Carter,,,Lakeside Commons,,,,',
        'not-an-email,Bad,Row,,user,,,,,',
      ),
      server,
    );
    expect(preview.error).toBeNull();
    expect(preview.rowsRead).toBe(3);
    expect(preview.newUsers.map((r) => r.email)).toEqual(['new@example.com']);
    expect(preview.changed).toEqual([]);
    expect(preview.unchanged.map((r) => r.line)).toEqual([3]);
    expect(preview.errors.map((e) => e.row)).toEqual([4]);
  });

  it('counts a new property access as a change, and refuses a property that is not an investor one', () => {
    const preview = previewImportCsv(
      bytes('investor@example.com,James,Carter,,,"Lakeside Commons,Aspen Ridge",,,,', 'new@example.com,Nina,New,,user,Nowhere Plaza,,,,'),
      server,
    );
    expect(preview.changed).toHaveLength(1);
    expect(preview.changed[0]!.changes.newPropertyAccess).toEqual(['Aspen Ridge']);
    expect(preview.errors).toEqual([{ row: 3, error: expect.stringContaining('Nowhere Plaza') }]);
  });

  it('lists new staff accounts and role changes apart, with their file line (issue 33)', () => {
    const preview = previewImportCsv(
      bytes('ada@example.com,Ada,Admin,,administrator,,,,,', 'investor@example.com,James,Carter,,everest_employee,,,,,', 'nina@example.com,Nina,New,,user,,,,,'),
      server,
    );
    expect(preview.staffRows.map((r) => [r.row, r.email, r.previousRole, r.role, r.change])).toEqual([
      [2, 'ada@example.com', null, 'administrator', 'new'],
      [3, 'investor@example.com', 'user', 'everest_employee', 'promoted'],
    ]);
  });

  it('answers the file-level sentence for a file without an email column', () => {
    const preview = previewImportCsv(new TextEncoder().encode('name\nNina\n'), server);
    expect(preview.error).toBe('The CSV file has no email column. Please start from the template.');
  });
});
