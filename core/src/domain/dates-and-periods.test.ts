import { describe, expect, it } from 'vitest';
import { currentYear, defaultUploadYear, documentYears } from './dates-and-periods';

describe('documentYears', () => {
  it('offers 2014 through the current year, newest first', () => {
    const years = documentYears(new Date('2026-06-15T12:00:00Z'));
    expect(years[0]).toBe(2026);
    expect(years.at(-1)).toBe(2014);
    expect(years).toHaveLength(13);
  });

  it('uses the year in Los Angeles, so New Year comes with Pasadena', () => {
    // 03:00 UTC on 1 January 2026 is 19:00 on 31 December 2025 in Los Angeles.
    expect(documentYears(new Date('2026-01-01T03:00:00Z'))[0]).toBe(2025);
    expect(documentYears(new Date('2026-01-01T09:00:00Z'))[0]).toBe(2026);
  });

  it('defaults a new upload to the current year', () => {
    const now = new Date('2027-02-01T12:00:00Z');
    expect(defaultUploadYear(now)).toBe(2027);
    expect(currentYear(now)).toBe(2027);
  });
});
