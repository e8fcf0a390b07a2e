import { describe, expect, it } from 'vitest';
import {
  displayName,
  formatCalendarDate,
  formatCategory,
  formatDate,
  formatDateTime,
  formatFileSize,
  joinFullName,
  roleLabel,
  splitFullName,
} from './format';

describe('file sizes', () => {
  it('shows whole KB under 1 MB and MB with one decimal above, never 0.0 MB for a small file (issue 35)', () => {
    expect(formatFileSize(0)).toBe('0 KB');
    expect(formatFileSize(200)).toBe('1 KB');
    expect(formatFileSize(12 * 1024)).toBe('12 KB');
    expect(formatFileSize(300 * 1024)).toBe('300 KB');
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1.0 MB');
    expect(formatFileSize(1.4 * 1024 * 1024)).toBe('1.4 MB');
    expect(formatFileSize(3.75 * 1024 * 1024)).toBe('3.8 MB');
  });
});

describe('formatCategory', () => {
  it('replaces every underscore with a space', () => {
    expect(formatCategory('tax_documents_2025')).toBe('tax documents 2025');
    expect(formatCategory('legal')).toBe('legal');
  });
});

describe('splitFullName', () => {
  it('splits at the first space, keeping the rest as the last name', () => {
    expect(splitFullName('Mary Ann Smith')).toEqual({ firstName: 'Mary', lastName: 'Ann Smith' });
  });

  it('gives an empty last name for a single word', () => {
    expect(splitFullName('Cher')).toEqual({ firstName: 'Cher', lastName: '' });
  });

  it('ignores surrounding and repeated spaces', () => {
    expect(splitFullName('  John    Doe  ')).toEqual({ firstName: 'John', lastName: 'Doe' });
    expect(splitFullName('')).toEqual({ firstName: '', lastName: '' });
  });

  it('joins back to the same full name', () => {
    expect(joinFullName('Mary', 'Ann Smith')).toBe('Mary Ann Smith');
    expect(joinFullName('Cher', '')).toBe('Cher');
  });
});

describe('displayName and roleLabel', () => {
  it('greets by name, or by entity when there is no name', () => {
    expect(displayName({ firstName: 'Jane', lastName: 'Doe', entity: 'Doe Trust' })).toBe('Jane Doe');
    expect(displayName({ firstName: '', lastName: '', entity: 'Doe Trust' })).toBe('Doe Trust');
  });

  it('labels roles as the portal shows them', () => {
    expect(roleLabel('user')).toBe('Investor');
    expect(roleLabel('everest_employee')).toBe('Everest Employee');
    expect(roleLabel('administrator')).toBe('Administrator');
  });
});

describe('dates', () => {
  it('shows a UTC timestamp as the date in Los Angeles', () => {
    // 05:00 UTC on 1 January is still 31 December in Pasadena.
    expect(formatDate('2026-01-01T05:00:00Z')).toBe('Dec 31, 2025');
    expect(formatDateTime('2026-01-01T05:00:00Z')).toBe('Dec 31, 2025, 9:00 PM');
  });

  it('shows a calendar date as written, whatever the zone', () => {
    expect(formatCalendarDate('2025-03-31')).toBe('Mar 31, 2025');
  });

  it('answers the fallback for a missing or unreadable value', () => {
    expect(formatDate(null, 'Never')).toBe('Never');
    expect(formatDateTime('not a date', 'Never')).toBe('Never');
    expect(formatCalendarDate('31/03/2025')).toBe('');
  });
});
