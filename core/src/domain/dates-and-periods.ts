// Dates and periods: the firm's time zone, the years a document may be filed under and the
// quarters within a year, shared so that the server, the web app and the desktop app agree on
// which year it is in Pasadena.

import type { Quarter } from './enums';

/** Timestamps are stored in UTC and shown in this zone. */
export const timeZone = 'America/Los_Angeles';

/** The calendar year in the firm's time zone (Pasadena), so that every part agrees at New Year. */
export function currentYear(now: Date = new Date()): number {
  const year = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' }).format(now);
  return Number(year);
}

export const firstDocumentYear = 2014;

/**
 * The years a document may be filed under, newest first: 2014 through the current year
 * (DECISIONS.md; the spec's "2014-2025" was written in 2025).
 */
export function documentYears(now: Date = new Date()): number[] {
  const years: number[] = [];
  for (let year = currentYear(now); year >= firstDocumentYear; year -= 1) years.push(year);
  return years;
}

/** A new upload is filed under the current year unless the administrator chooses another. */
export function defaultUploadYear(now: Date = new Date()): number {
  return currentYear(now);
}

/** The spec's year for a document that carries none (grouping of older data). */
export const missingDocumentYear = 2025;
export const defaultQuarter: Quarter = 'Q1';
/** Quarters are shown newest first: Q4, Q3, Q2, Q1. */
export const quarterOrder: readonly Quarter[] = ['Q4', 'Q3', 'Q2', 'Q1'];
