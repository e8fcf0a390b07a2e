import { describe, expect, it } from 'vitest';
import { firmToday, shareEndWords, shareScopeWords } from './share-words';

const none = { personalScope: 'none', categories: [], propertyScope: 'none', propertyIds: [] } as const;

describe('a share in words (issue 36)', () => {
  it("says 'Tax documents; all properties' for tax documents and every property", () => {
    expect(shareScopeWords({ ...none, personalScope: 'categories', categories: ['tax'], propertyScope: 'all' })).toBe('Tax documents; all properties');
  });

  it('names chosen categories and chosen properties by name', () => {
    expect(
      shareScopeWords({
        personalScope: 'categories',
        categories: ['tax', 'legal'],
        propertyScope: 'properties',
        propertyIds: [3, 4],
        properties: [
          { id: 3, name: 'Aspen Ridge' },
          { id: 4, name: 'Bayou Park Apartments' },
        ],
      }),
    ).toBe('Tax documents, Legal documents; Aspen Ridge, Bayou Park Apartments');
  });

  it('counts chosen properties whose names the answer does not give (the delegate and the administrator)', () => {
    expect(shareScopeWords({ ...none, propertyScope: 'properties', propertyIds: [3] })).toBe('1 property');
    expect(shareScopeWords({ ...none, personalScope: 'all', propertyScope: 'properties', propertyIds: [3, 4] })).toBe('All personal documents; 2 properties');
  });

  it('says the last day, or that there is none', () => {
    expect(shareEndWords('2027-04-15')).toBe('Until Apr 15, 2027');
    expect(shareEndWords(null)).toBe('No end date');
  });

  it("takes today in the firm's time zone: 07:00 UTC on 1 Jan is still 31 Dec in Pasadena", () => {
    expect(firmToday(new Date('2027-01-01T07:00:00Z'))).toBe('2026-12-31');
    expect(firmToday(new Date('2027-01-01T09:00:00Z'))).toBe('2027-01-01');
  });
});
