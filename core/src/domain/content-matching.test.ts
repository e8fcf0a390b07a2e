import { describe, expect, it } from 'vitest';
import {
  contentMatchingMessages,
  identifierConflict,
  identifierKey,
  investorIdentifiers,
  k1Category,
  k1Title,
  matchDocument,
  normalizeIdentifier,
  readTaxYear,
  splitCombined,
  type IdentifiedInvestor,
} from './content-matching';

const jane: IdentifiedInvestor = { id: 1, name: 'Jane Doe', entity: 'Doe Holdings, LLC', identifiers: ['XXX-XX-1234'] };
const bob: IdentifiedInvestor = { id: 2, name: 'Bob Stone', entity: '', identifiers: ['5678'] };
const ann: IdentifiedInvestor = { id: 3, name: 'Ann Lee', entity: '', identifiers: [] };
const investors = [jane, bob, ann];
const index = investorIdentifiers(investors);

/** A K-1's first page as pdfjs reads it: the partner's name and masked TIN among the form's words. */
const k1 = (partner: string, tin = 'XXX-XX-0000') =>
  `Schedule K-1 (Form 1065) 2025 Part II Information About the Partner E Partner's SSN or TIN ${tin} F Name, address ${partner} 100 Main St Pasadena CA 91101-4321`;
const continuation = 'Supplemental Information Line 20 Code Z Section 199A information continued';

describe('matchDocument', () => {
  it("gives a K-1 to the one investor whose name is in it, with the words that matched", () => {
    const result = matchDocument([k1('JANE DOE')], index);
    expect(result).toMatchObject({ kind: 'matched', investorId: 1, taxYear: 2025 });
    expect(result.kind === 'matched' && result.snippet).toContain('JANE DOE');
    expect(result.kind === 'matched' && result.snippet.length).toBeLessThanOrEqual(70);
  });

  it('gives it by the entity or an added identifier alike', () => {
    expect(matchDocument([k1('DOE HOLDINGS LLC')], index)).toMatchObject({ kind: 'matched', investorId: 1 });
    const trust = investorIdentifiers([{ id: 9, name: 'Carl Smith', entity: '', identifiers: ['Smith Family Trust dtd 3/1/2001'] }]);
    expect(matchDocument([k1('Smith Family Trust DTD 3-1-2001')], trust)).toMatchObject({ kind: 'matched', investorId: 9 });
  });

  it('needs a person, listing both, when two investors appear', () => {
    expect(matchDocument([k1('Jane Doe'), k1('Bob Stone')], index)).toEqual({
      kind: 'needs-person',
      reason: contentMatchingMessages.severalInvestors('in this PDF'),
      candidates: [1, 2],
      taxYear: 2025,
    });
  });

  it('needs a person when no investor appears', () => {
    expect(matchDocument([k1('Someone Else')], index)).toEqual({
      kind: 'needs-person',
      reason: "No investor's name, entity or identifier appears in this PDF: name its investor",
      candidates: [],
      taxYear: 2025,
    });
  });

  it('needs a person for a scan, with the sentence the issue gives', () => {
    for (const pages of [[''], ['', '  \n\t '], ['\u200b']]) {
      expect(matchDocument(pages, index)).toEqual({
        kind: 'needs-person',
        reason: 'This PDF has no text to read (a scan): name its investor',
        candidates: [],
        taxYear: null,
      });
    }
  });

  describe('a last-4 only confirms a name', () => {
    it("matches when the masked TIN is the named investor's", () => {
      expect(matchDocument([k1('Jane Doe', 'XXX-XX-1234')], index)).toMatchObject({ kind: 'matched', investorId: 1 });
      expect(matchDocument([k1('Bob Stone', '***-**-5678')], index)).toMatchObject({ kind: 'matched', investorId: 2 });
    });

    it("needs a person when the last-4 agrees with one investor and the name is another's", () => {
      expect(matchDocument([k1('Jane Doe', '***-**-5678')], index)).toEqual({
        kind: 'needs-person',
        reason: contentMatchingMessages.lastFourDisagrees('in this PDF'),
        candidates: [1, 2],
        taxYear: 2025,
      });
    });

    it('never picks an investor by a last-4 alone', () => {
      expect(matchDocument([k1('Someone Else', 'XXX-XX-1234')], index)).toEqual({
        kind: 'needs-person',
        reason: contentMatchingMessages.lastFourAlone('in this PDF'),
        candidates: [1],
        taxYear: 2025,
      });
    });

    it('counts a masked TIN nobody has against nobody: the portal may not know every last four', () => {
      expect(matchDocument([k1('Jane Doe', 'XXX-XX-9999')], index)).toMatchObject({ kind: 'matched', investorId: 1 });
    });

    it('reads four digits only where a TIN shows them masked, never in dates, amounts, ZIP+4 or longer numbers', () => {
      // Bob's last four beside Jane's name, but not as a masked TIN: nothing disagrees with Jane.
      for (const text of ['5678', '12/31/5678', 'ZIP 91101-5678', '156789', 'XXX-XX-156789', 'EIN 12-3455678', '5678.00']) {
        expect(matchDocument([`Jane Doe ${text}`], index), text).toMatchObject({ kind: 'matched', investorId: 1 });
      }
      // The same digits masked do count: Jane's name with Bob's last four.
      for (const tin of ['XXX-XX-5678', '***-**-5678', '**-***5678', 'XXXXX5678', 'xxx - xx - 5678']) {
        expect(matchDocument([k1('Jane Doe', tin)], index), tin).toMatchObject({ kind: 'needs-person', candidates: [1, 2] });
      }
    });
  });

  describe('investors who share a full name', () => {
    const first: IdentifiedInvestor = { id: 10, name: 'John Smith', entity: '', identifiers: ['Smith Family Trust dtd 3/1/2001'] };
    const second: IdentifiedInvestor = { id: 11, name: 'John Smith', entity: '', identifiers: [] };
    const smiths = investorIdentifiers([first, second]);

    it('the name identifies neither: the document needs a person and lists both', () => {
      expect(matchDocument([k1('JOHN SMITH')], smiths)).toEqual({
        kind: 'needs-person',
        reason: contentMatchingMessages.shared('John Smith', 'in this PDF'),
        candidates: [10, 11],
        taxYear: 2025,
      });
      expect(smiths.identifiers.filter((i) => i.normalized === 'john smith').map((i) => i.sharedWith)).toEqual([[11], [10]]);
    });

    it("the shared name and one's added identifier match that one", () => {
      const result = matchDocument([k1('JOHN SMITH, Trustee, Smith Family Trust dtd 3/1/2001')], smiths);
      expect(result).toMatchObject({ kind: 'matched', investorId: 10 });
      expect(result.kind === 'matched' && result.snippet).toContain('Smith Family Trust dtd 3/1/2001');
    });

    it("a shared name beside another investor's identifier is still another investor's", () => {
      const three = investorIdentifiers([first, second, jane]);
      expect(matchDocument([k1('Jane Doe c/o John Smith')], three)).toMatchObject({ kind: 'needs-person', candidates: [1, 10, 11] });
    });
  });

  describe('a name that goes on is not the name', () => {
    const investors = investorIdentifiers([
      { id: 30, name: 'John Smith', entity: '', identifiers: [] },
      { id: 31, name: 'Sarah Thompson', entity: 'Thompson Family Trust', identifiers: ['Sarah Thompson IRA'] },
    ]);

    it("another partner's longer name (a generation, or the person's own entity) needs a person", () => {
      for (const [printed, identifier, longer] of [
        ['JOHN SMITH JR', 'John Smith', 'JOHN SMITH JR'],
        ['John Smith, III', 'John Smith', 'John Smith, III'],
        ['John Smith Trust', 'John Smith', 'John Smith Trust'],
        ['Thompson Family Trust II', 'Thompson Family Trust', 'Thompson Family Trust II'],
      ] as const) {
        expect(matchDocument([k1(printed)], investors), printed).toEqual({
          kind: 'needs-person',
          reason: contentMatchingMessages.nameGoesOn(identifier, longer, 'in this PDF'),
          candidates: [identifier === 'John Smith' ? 30 : 31],
          taxYear: 2025,
        });
      }
    });

    it('an identifier that itself ends so is found whole, and a name followed by its address still matches', () => {
      expect(matchDocument([k1('Custodian FBO Sarah Thompson IRA')], investors)).toMatchObject({ kind: 'matched', investorId: 31 });
      expect(matchDocument([k1('John Smith\n1840 Oak Grove Ave.')], investors)).toMatchObject({ kind: 'matched', investorId: 30 });
    });
  });

  it('compares identifiers normalized: NFC, case, whitespace, punctuation and the ’ pdfjs reads', () => {
    const people = investorIdentifiers([
      { id: 20, name: "Mary O'Brien", entity: '', identifiers: [] },
      { id: 21, name: 'José Núñez', entity: 'Núñez Partners, L.P.', identifiers: [] },
      { id: 22, name: 'Lee Griffin', entity: '', identifiers: [] },
    ]);
    expect(matchDocument(['Partner: MARY O’BRIEN'], people)).toMatchObject({ kind: 'matched', investorId: 20 });
    expect(matchDocument(['Partner: Mary OBrien'], people)).toMatchObject({ kind: 'matched', investorId: 20 });
    // Decomposed accents, as some PDFs store them.
    expect(matchDocument(['Partner: JOSE\u0301 NU\u0301N\u0303EZ'], people)).toMatchObject({ kind: 'matched', investorId: 21 });
    expect(matchDocument(['Partner:\n  Núñez\u00a0 Partners  L P'], people)).toMatchObject({ kind: 'matched', investorId: 21 });
    // The ligature pdfjs reads from many fonts.
    expect(matchDocument(['Partner: Lee Gri\ufb03n'], people)).toMatchObject({ kind: 'matched', investorId: 22 });
    // A soft hyphen or a zero-width space inside a word, as some PDFs store them.
    expect(matchDocument(['Partner: Lee Grif\u00adfin'], people)).toMatchObject({ kind: 'matched', investorId: 22 });
    expect(matchDocument(['Partner: L\u200bee Griffin'], people)).toMatchObject({ kind: 'matched', investorId: 22 });

    expect(normalizeIdentifier("  O’Brien  Holdings,\tL.L.C. ")).toBe('obrien holdings l l c');
    expect(normalizeIdentifier('Smith Family Trust dtd 3/1/2001')).toBe('smith family trust dtd 3 1 2001');
    expect(normalizeIdentifier('Mary-Ann')).toBe(normalizeIdentifier('mary ann'));
    expect(normalizeIdentifier('---')).toBe('');
  });

  it('matches whole words only', () => {
    expect(matchDocument(['Partner: Joann Leesburg'], index)).toMatchObject({ kind: 'needs-person', candidates: [] });
    expect(matchDocument(['Partner: Ann Leesburg'], index)).toMatchObject({ kind: 'needs-person', candidates: [] });
    expect(matchDocument(['Partner: Ann Lee, Leesburg'], index)).toMatchObject({ kind: 'matched', investorId: 3 });
  });

  it("reads an investor's name inside another's longer identifier as that one", () => {
    const trust = investorIdentifiers([
      jane,
      { id: 30, name: '', entity: 'Jane Doe Revocable Trust', identifiers: [] },
      { id: 31, name: '', entity: 'The Jane Doe Education Trust', identifiers: [] },
    ]);
    expect(matchDocument([k1('JANE DOE REVOCABLE TRUST')], trust)).toMatchObject({ kind: 'matched', investorId: 30 });
    expect(matchDocument([k1('THE JANE DOE EDUCATION TRUST')], trust)).toMatchObject({ kind: 'matched', investorId: 31 });
    expect(matchDocument([k1('JANE DOE REVOCABLE TRUST'), 'Jane Doe, Trustee'], trust)).toMatchObject({
      kind: 'needs-person',
      candidates: [1, 30],
    });
  });

  it('never matches by similarity: a name one letter off matches nobody', () => {
    for (const name of ['Jane Dow', 'Jan Doe', 'Jane Does', 'JaneDoe', 'Doe Jane']) {
      expect(matchDocument([k1(name)], index), name).toMatchObject({ kind: 'needs-person', candidates: [] });
    }
  });
});

describe('splitCombined', () => {
  it('gives each page to the investor it names, and a page naming nobody to the page before', () => {
    const sections = splitCombined([k1('Jane Doe'), continuation, 'State schedule XXX-XX-1234', k1('Bob Stone'), continuation], index);
    expect(sections).toEqual([
      { pages: [1, 2, 3], kind: 'matched', investorId: 1, snippet: expect.stringContaining('Jane Doe'), taxYear: 2025 },
      { pages: [4, 5], kind: 'matched', investorId: 2, snippet: expect.stringContaining('Bob Stone'), taxYear: 2025 },
    ]);
  });

  it('needs a person for the pages before the first identifier', () => {
    const sections = splitCombined(['Cover letter', 'Instructions for partner', k1('Ann Lee')], index);
    expect(sections).toEqual([
      { pages: [1, 2], kind: 'needs-person', reason: contentMatchingMessages.beforeFirstIdentifier, candidates: [], taxYear: null },
      expect.objectContaining({ pages: [3], kind: 'matched', investorId: 3 }),
    ]);
  });

  it('needs a person for a page with two investors, and for the pages that continue it', () => {
    const sections = splitCombined([k1('Jane Doe'), 'Jane Doe and Bob Stone, joint tenants', continuation, k1('Ann Lee')], index);
    expect(sections.map(({ pages, kind }) => ({ pages, kind }))).toEqual([
      { pages: [1], kind: 'matched' },
      { pages: [2, 3], kind: 'needs-person' },
      { pages: [4], kind: 'matched' },
    ]);
    expect(sections[1]).toMatchObject({ reason: contentMatchingMessages.severalInvestors('on these pages'), candidates: [1, 2] });
  });

  it("needs a person for a page showing another investor's last four after a named page", () => {
    const sections = splitCombined([k1('Jane Doe'), 'State schedule XXX-XX-5678'], index);
    expect(sections[1]).toMatchObject({ pages: [2], kind: 'needs-person', candidates: [1, 2] });
  });

  it('reads each section its own tax year and calls a combined scan one section', () => {
    const sections = splitCombined(['For calendar year 2024 Jane Doe', 'Bob Stone Schedule K-1 (Form 1065) 2025'], index);
    expect(sections.map((s) => s.taxYear)).toEqual([2024, 2025]);
    expect(splitCombined(['', ' '], index)).toEqual([
      { pages: [1, 2], kind: 'needs-person', reason: contentMatchingMessages.scan, candidates: [], taxYear: null },
    ]);
  });
});

describe('readTaxYear', () => {
  it('reads "For calendar year 2025"', () => {
    expect(readTaxYear('Final K-1 For calendar year 2025, or tax year beginning / / 2025 ending / /')).toBe(2025);
  });

  it('reads the year beside "Schedule K-1", never the form number', () => {
    expect(readTaxYear('651121 Schedule K-1 (Form 1065) 2024 Department of the Treasury')).toBe(2024);
    expect(readTaxYear('Schedule K-1 (Form 1120-S) 2023')).toBe(2023);
    expect(readTaxYear('2022 Schedule K-1 Partner’s Share of Income')).toBe(2022);
  });

  it('answers null when the form states no year, or two different ones', () => {
    expect(readTaxYear('Schedule K-1 (Form 1065) Partner’s Share of Income 2025 distributions')).toBeNull();
    expect(readTaxYear('Invoice dated 2025')).toBeNull();
    expect(readTaxYear('For calendar year 2024 … Schedule K-1 (Form 1065) 2025')).toBeNull();
  });

  it('gives a K-1 its default title and category', () => {
    expect(k1Title(2025)).toBe('2025 Schedule K-1');
    expect(k1Category).toBe('tax');
  });
});

describe('investorIdentifiers', () => {
  it("uses the name, the entity and the added identifiers, each once, and skips empty ones", () => {
    const built = investorIdentifiers([{ id: 1, name: 'Jane Doe', entity: 'JANE DOE', identifiers: ['', '***-**-1234', 'Doe Trust'] }]);
    expect(built.identifiers.map(({ kind, normalized, sharedWith }) => ({ kind, normalized, sharedWith }))).toEqual([
      { kind: 'words', normalized: 'jane doe', sharedWith: [] },
      { kind: 'last-4', normalized: '1234', sharedWith: [] },
      { kind: 'words', normalized: 'doe trust', sharedWith: [] },
    ]);
  });
});

describe('identifierConflict', () => {
  const others = [{ ...jane, email: 'jane@example.com' }, { ...bob, email: 'bob@example.com' }];

  it('names the account that already has the identifier, however it is typed', () => {
    expect(identifierConflict('DOE HOLDINGS LLC', others)).toBe(
      "“DOE HOLDINGS LLC” already identifies jane@example.com: an identifier two investors share tells neither apart, so add one that only this investor's K-1 shows",
    );
    expect(identifierConflict('***-**-1234', others)).toContain('jane@example.com');
    expect(identifierConflict('1234', others)).toContain('jane@example.com');
    expect(identifierConflict('bob stone', others)).toContain('bob@example.com');
  });

  it('answers null for an identifier nobody has', () => {
    expect(identifierConflict('Doe Family Trust', others)).toBeNull();
    expect(identifierConflict('XXX-XX-4321', others)).toBeNull();
  });
});

describe('identifierKey', () => {
  it('gives one key to identifiers the rule treats as the same', () => {
    expect(identifierKey('Smith Family Trust.')).toBe(identifierKey('smith family trust'));
    expect(identifierKey('XXX-XX-1234')).toBe('1234');
    expect(identifierKey('***-**-1234')).toBe(identifierKey('1234'));
  });

  it('answers null for a text without words', () => {
    expect(identifierKey(' -- ')).toBeNull();
  });
});
