import { describe, expect, it } from 'vitest';
import { groupPersonalDocuments, groupPropertyDocuments, isYearExpandedByDefault } from './document-groups';

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

describe('isYearExpandedByDefault', () => {
  it('expands only the current year, in Los Angeles time', () => {
    // 2027-01-01 03:00 UTC is still 2026 in Los Angeles.
    const newYearsEveInLA = new Date(Date.UTC(2027, 0, 1, 3));
    expect(isYearExpandedByDefault(2026, newYearsEveInLA)).toBe(true);
    expect(isYearExpandedByDefault(2027, newYearsEveInLA)).toBe(false);
  });
});
