import type { Quarter } from './enums';
import { currentYear, defaultQuarter, missingDocumentYear } from './dates-and-periods';
import { defaultPropertyGroup } from './document-files';

// How the portal's 'Your Documents' card orders documents (investor-portal spec, section 2).
// Pure, so that the web portal and the desktop app show the same order.

interface Groupable {
  title: string;
  year?: number | null;
  quarter?: Quarter | null;
}

export interface PropertyGroupable extends Groupable {
  property?: string | null;
}

export interface YearGroup<T> {
  year: number;
  documents: T[];
}

export interface PropertyGroup<T> {
  property: string;
  years: YearGroup<T>[];
}

export interface QuarterGroup<T> {
  quarter: Quarter;
  documents: T[];
}

export interface PersonalYearGroup<T> {
  year: number;
  quarters: QuarterGroup<T>[];
}

/** Q4 before Q3 before Q2 before Q1 (spec: quarter order Q4 > Q3 > Q2 > Q1). */
const quarterRank: Record<Quarter, number> = { Q4: 0, Q3: 1, Q2: 2, Q1: 3 };

const yearOf = (d: Groupable) => d.year ?? missingDocumentYear;
const quarterOf = (d: Groupable) => d.quarter ?? defaultQuarter;
const propertyOf = (d: PropertyGroupable) => d.property || defaultPropertyGroup;

const byTitle = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function byQuarterThenTitle<T extends Groupable>(a: T, b: T): number {
  return quarterRank[quarterOf(a)] - quarterRank[quarterOf(b)] || byTitle.compare(a.title, b.title);
}

/**
 * Property documents grouped by property ('General' when none), properties alphabetical; then
 * by year (2025 when none), newest first; inside a year by quarter, Q4 first (Q1 when none).
 */
export function groupPropertyDocuments<T extends PropertyGroupable>(documents: T[]): PropertyGroup<T>[] {
  return [...groupBy(documents, propertyOf)]
    .sort(([a], [b]) => byTitle.compare(a, b))
    .map(([property, inProperty]) => ({
      property,
      years: [...groupBy(inProperty, yearOf)]
        .sort(([a], [b]) => b - a)
        .map(([year, inYear]) => ({ year, documents: [...inYear].sort(byQuarterThenTitle) })),
    }));
}

/** Personal documents grouped by year (2025 when none), newest first, then by quarter, Q4 first. */
export function groupPersonalDocuments<T extends Groupable>(documents: T[]): PersonalYearGroup<T>[] {
  return [...groupBy(documents, yearOf)]
    .sort(([a], [b]) => b - a)
    .map(([year, inYear]) => ({
      year,
      quarters: [...groupBy(inYear, quarterOf)]
        .sort(([a], [b]) => quarterRank[a] - quarterRank[b])
        .map(([quarter, inQuarter]) => ({
          quarter,
          documents: [...inQuarter].sort((a, b) => byTitle.compare(a.title, b.title)),
        })),
    }));
}

/**
 * The one year of a list of year groups that starts expanded: the current year's (in the firm's
 * time zone), or, when nothing is from the current year, the newest year there is
 * (DECISIONS.md), so that an investor in January does not open the portal to closed groups.
 */
export function expandedYearOf(years: readonly number[], now: Date = new Date()): number | undefined {
  const current = currentYear(now);
  if (years.includes(current)) return current;
  return years.length === 0 ? undefined : Math.max(...years);
}
