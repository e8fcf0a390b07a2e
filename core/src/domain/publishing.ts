// The publishing rules every path shares: single uploads, the browser's bulk upload,
// the desktop's Folder Drop and its watched-folder sync, and the server that takes them all. A
// dry run that applies these rules promises only what the server will then do, so none of them
// is restated elsewhere: where a document goes, what makes two publications the same, which
// quarter it is filed under, which files the portal refuses, and how a CSV file is read.
// This file holds the twin rule and the period; the others are beside it and exported from
// here too: publication-identity.ts, publishing-messages.ts, document-checks.ts, csv-read.ts.

import { quarters, type Quarter } from './enums';
import { timeZone } from './dates-and-periods';
import { titleFromFilename } from './document-checks';

export * from './publication-identity';
export * from './publishing-messages';
export * from './document-checks';
export * from './csv-read';

// ---- Twins --------------------------------------------------------------------------------

// The names that file managers, browsers and mail clients give a copy: Windows 'X - Copy' and
// 'X - Copy (2)', GNOME 'X (copy)' and 'X (another copy)', macOS 'X copy' and 'X copy 2', a
// download's 'X (1)', and 'Copy of X'.
const copySuffix = /(?:\s-\s*copy(?:\s*\(\d+\))?|\s*\((?:copy(?:\s*\d+)?|another copy|\d+(?:st|nd|rd|th) copy|\d+)\)|\scopy(?:\s*\d+)?)$/i;
const copyPrefix = /^copy\s(?:\(\d+\)\s)?of\s/i;

function looksLikeCopy(name: string): boolean {
  const stem = titleFromFilename(name);
  return copySuffix.test(stem) || copyPrefix.test(stem);
}

/**
 * The twin rule: among files with the same content for the same destination, which name is the
 * original? The one that does not look like a copy ('X - Copy.pdf', 'X (copy).pdf',
 * 'Copy of X.pdf', 'X (1).pdf', 'X copy.pdf'), then the shorter, then the first alphabetically
 * (by code unit, so every machine agrees). The order of `names` never matters.
 */
export function originalOfTwins(names: readonly string[]): string {
  if (names.length === 0) throw new Error('originalOfTwins needs at least one name');
  return [...names].sort((a, b) => {
    const copies = Number(looksLikeCopy(a)) - Number(looksLikeCopy(b));
    if (copies !== 0) return copies;
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  })[0]!;
}

// ---- Period -------------------------------------------------------------------------------

export interface Period {
  year: number;
  quarter: Quarter;
}

const quarterOfMonth = (month: number): Quarter => quarters[Math.floor((month - 1) / 3)] ?? 'Q1';
const documentDateShape = /^(\d{4})-(\d{2})-\d{2}$/;

/** The year and quarter of a moment in the firm's time zone: 11 pm on 31 March in Pasadena is Q1. */
export function periodAt(moment: Date): Period {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric' }).formatToParts(moment);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), quarter: quarterOfMonth(part('month')) };
}

/**
 * The period of a personal document: its document_date's quarter, else the batch's (the quarter
 * folder, or what staff chose), else the upload date's (LA time). `documentDate` is 'YYYY-MM-DD'
 * as the manifest checks it; anything else counts as none.
 */
export function periodOf(documentDate: string | null, batch: Period | null, now: Date): Period {
  const date = documentDate ? documentDateShape.exec(documentDate.trim()) : null;
  const month = date ? Number(date[2]) : 0;
  if (date && month >= 1 && month <= 12) return { year: Number(date[1]), quarter: quarterOfMonth(month) };
  if (batch) return { year: batch.year, quarter: batch.quarter };
  return periodAt(now);
}
