import { describe, expect, it } from 'vitest';
import { originalOfTwins, periodOf } from './publishing';

describe('originalOfTwins', () => {
  it.each([
    ['Report - Copy.pdf'],
    ['Report - Copy (2).pdf'],
    ['Report (copy).pdf'],
    ['Report (another copy).pdf'],
    ['Copy of Report.pdf'],
    ['Report (1).pdf'],
    ['Report copy.pdf'],
    ['Report copy 2.pdf'],
  ])('keeps Report.pdf over %s, whichever comes first', (copy) => {
    expect(originalOfTwins([copy, 'Report.pdf'])).toBe('Report.pdf');
    expect(originalOfTwins(['Report.pdf', copy])).toBe('Report.pdf');
  });

  it('then the shorter name, then the first by code unit', () => {
    expect(originalOfTwins(['K-1 2025 final.pdf', 'K-1 2025.pdf'])).toBe('K-1 2025.pdf');
    expect(originalOfTwins(['b.pdf', 'a.pdf'])).toBe('a.pdf');
    // Two copies and no original: the rule still picks one, the same one every time.
    expect(originalOfTwins(['Report (1).pdf', 'Report - Copy.pdf'])).toBe('Report (1).pdf');
  });

  it('does not call a name a copy for a word inside it', () => {
    expect(originalOfTwins(['Copyright notice.pdf', 'Copyright notice (1).pdf'])).toBe('Copyright notice.pdf');
  });
});

describe('periodOf', () => {
  const batch = { year: 2026, quarter: 'Q3' } as const;
  const now = new Date('2026-11-02T18:00:00Z');

  it("files a row without document_date under the batch's quarter, not the upload's (issue 32 case 4)", () => {
    expect(periodOf(null, batch, now)).toEqual({ year: 2026, quarter: 'Q3' });
  });

  it("lets the row's own document_date win", () => {
    expect(periodOf('2025-05-02', batch, now)).toEqual({ year: 2025, quarter: 'Q2' });
    expect(periodOf('2025-12-31', null, now)).toEqual({ year: 2025, quarter: 'Q4' });
  });

  it("falls back to the upload's quarter in the firm's time zone", () => {
    expect(periodOf(null, null, now)).toEqual({ year: 2026, quarter: 'Q4' });
    // 11 pm on 31 March in Pasadena is already April in UTC.
    expect(periodOf(null, null, new Date('2026-04-01T06:00:00Z'))).toEqual({ year: 2026, quarter: 'Q1' });
    expect(periodOf('not a date', null, now)).toEqual({ year: 2026, quarter: 'Q4' });
  });
});
