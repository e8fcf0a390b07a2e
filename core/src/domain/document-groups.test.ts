import { describe, expect, it } from 'vitest';
import { groupPersonalDocuments, groupPropertyDocuments, expandedYearOf } from './document-groups';

const doc = (title: string, property: string | null, year: number | null, quarter: 'Q1' | 'Q2' | 'Q3' | 'Q4' | null) => ({
  title,
  property,
  year,
  quarter,
});

describe('groupPropertyDocuments', () => {
  it('groups by property alphabetically, years newest first, quarters Q4 to Q1', () => {
    const groups = groupPropertyDocuments([
      doc('a', 'Sunset Terrace', 2024, 'Q1'),
      doc('b', 'Aspen Ridge', 2025, 'Q2'),
      doc('c', 'Sunset Terrace', 2025, 'Q1'),
      doc('d', 'Sunset Terrace', 2025, 'Q4'),
      doc('e', 'Aspen Ridge', 2024, 'Q3'),
      doc('f', 'General', 2025, 'Q3'),
    ]);
    expect(groups.map((g) => g.property)).toEqual(['Aspen Ridge', 'General', 'Sunset Terrace']);
    const sunset = groups[2];
    expect(sunset?.years.map((y) => y.year)).toEqual([2025, 2024]);
    expect(sunset?.years[0]?.documents.map((d) => d.title)).toEqual(['d', 'c']);
  });

  it("files a document without property, year or quarter under 'General', 2025 and Q1", () => {
    const groups = groupPropertyDocuments([doc('x', null, null, null), doc('y', 'General', 2025, 'Q2')]);
    expect(groups).toHaveLength(1);
    expect(groups[0]?.property).toBe('General');
    expect(groups[0]?.years[0]?.year).toBe(2025);
    expect(groups[0]?.years[0]?.documents.map((d) => d.title)).toEqual(['y', 'x']);
  });

  it('orders documents of the same quarter by title, numbers naturally', () => {
    const groups = groupPropertyDocuments([doc('Report 10', 'A', 2025, 'Q1'), doc('Report 9', 'A', 2025, 'Q1')]);
    expect(groups[0]?.years[0]?.documents.map((d) => d.title)).toEqual(['Report 9', 'Report 10']);
  });
});

describe('groupPersonalDocuments', () => {
  it('groups by year newest first, then by quarter Q4 to Q1', () => {
    const groups = groupPersonalDocuments([
      { title: 'K-1 2024', year: 2024, quarter: 'Q1' as const },
      { title: 'Statement', year: 2025, quarter: 'Q2' as const },
      { title: 'K-1 2025', year: 2025, quarter: 'Q4' as const },
      { title: 'Agreement', year: null, quarter: null },
    ]);
    expect(groups.map((g) => g.year)).toEqual([2025, 2024]);
    expect(groups[0]?.quarters.map((q) => q.quarter)).toEqual(['Q4', 'Q2', 'Q1']);
    expect(groups[0]?.quarters[2]?.documents.map((d) => d.title)).toEqual(['Agreement']);
  });
});

describe('expandedYearOf', () => {
  it('expands the current year, in Los Angeles time', () => {
    // 2027-01-01 03:00 UTC is still 2026 in Los Angeles.
    const newYearsEveInLA = new Date(Date.UTC(2027, 0, 1, 3));
    expect(expandedYearOf([2027, 2026, 2025], newYearsEveInLA)).toBe(2026);
    expect(expandedYearOf([2027, 2026, 2025], new Date(Date.UTC(2027, 0, 1, 9)))).toBe(2027);
  });

  it('expands the newest year when nothing is from the current year', () => {
    const january2027 = new Date(Date.UTC(2027, 0, 15, 18));
    expect(expandedYearOf([2026, 2025], january2027)).toBe(2026);
    expect(expandedYearOf([2024, 2025, 2019], january2027)).toBe(2025);
    expect(expandedYearOf([], january2027)).toBeUndefined();
  });
});
