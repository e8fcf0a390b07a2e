import { describe, expect, it } from 'vitest';
import { destinationKey, documentIdentityKey, isSameDocument, publicationKey } from './publication-identity';

describe('destinationKey and publicationKey', () => {
  it('compares property names and e-mails as people read them: NFC, trimmed, any case', () => {
    expect(destinationKey({ kind: 'property', property: ' Café Élysée Lofts '.normalize('NFD') })).toBe('property:café élysée lofts');
    expect(destinationKey({ kind: 'investor', email: 'Ann@Example.com' })).toBe('investor:ann@example.com');
  });

  it('tells the same content apart by its destination (issue 32 case 2)', () => {
    const heartland = publicationKey({ kind: 'property', property: 'Heartland Plaza' }, 'ABC');
    const sunset = publicationKey({ kind: 'property', property: 'Sunset Terrace Apartments' }, 'abc');
    expect(heartland).not.toBe(sunset);
    expect(publicationKey({ kind: 'property', property: 'heartland plaza' }, 'abc')).toBe(heartland);
    // A property named like an e-mail is still not that investor.
    expect(publicationKey({ kind: 'property', property: 'a@b.com' }, 'abc')).not.toBe(publicationKey({ kind: 'investor', email: 'a@b.com' }, 'abc'));
  });
});

describe('isSameDocument', () => {
  const statement = { title: 'Quarterly Distribution Statement', category: 'financial' as const, year: 2026, quarter: 'Q1' as const };

  it('is the same document within one period, title read as people read it (NFC, case, spaces)', () => {
    expect(isSameDocument(statement, { ...statement, title: ' quarterly distribution STATEMENT ' })).toBe(true);
    // A Mac spells 'é' as 'e' and a combining accent.
    expect(isSameDocument({ ...statement, title: 'Relevé' }, { ...statement, title: 'Releve\u0301' })).toBe(true);
  });

  it('is another document in another quarter, another year or another category', () => {
    expect(isSameDocument(statement, { ...statement, quarter: 'Q2' })).toBe(false);
    expect(isSameDocument(statement, { ...statement, year: 2025 })).toBe(false);
    expect(isSameDocument(statement, { ...statement, category: 'tax' })).toBe(false);
    // A property document has no category; a personal one always has.
    expect(isSameDocument({ ...statement, category: null }, statement)).toBe(false);
  });

  it('keys a document under its owner: two investors never share a key', () => {
    expect(documentIdentityKey(1, statement)).not.toBe(documentIdentityKey(2, statement));
    expect(documentIdentityKey(1, statement)).toBe(documentIdentityKey(1, { ...statement, title: 'QUARTERLY distribution statement' }));
  });
});
