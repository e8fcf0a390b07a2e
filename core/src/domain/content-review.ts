// The review that "Match by content" puts before staff, and the manifest it becomes. The browser's
// bulk upload, the desktop's Folder Drop and the headless sync all read PDFs where the files are,
// then call reviewRows for each; staff change an investor, a title or a tax year, or exclude a
// row; reviewManifest turns what they confirm into manifest rows, and from there a batch takes
// the path every manifest takes. The sync, with nobody to ask, publishes only the rows that matched
// and writes the others as a draft manifest (draftManifest) for staff to complete.

import { contentMatchingMessages, k1Category, k1Title, matchDocument, splitCombined, type IdentifierIndex } from './content-matching';
import Papa from 'papaparse';
import { manifestRequiredColumns } from './bulk-manifest-types';

/** An investor as the review shows and publishes them. */
export interface ReviewInvestor {
  id: number;
  email: string;
  /** The full name ('' when the account has only an entity). */
  name: string;
  entity: string;
}

/** What reading one PDF gave: its pages' text, or why it could not be read (readPdfText). */
export type ReadPdf = { kind: 'text'; pages: readonly string[] } | { kind: 'unreadable'; reason: string };

/** One file, or one section of a combined PDF, as staff review it. */
export interface ReviewRow {
  /** Unique in the review: the file's name, with the section's pages for a section. */
  key: string;
  /** The PDF it comes from, as chosen. */
  source: string;
  /** The 1-based pages of a section of `source`; null for the whole file. */
  pages: number[] | null;
  /** Whom the rule gave it to, or whom staff picked; null while nobody is named. */
  investorId: number | null;
  /** True when the rule gave it to `investorId` and staff left it so. */
  matched: boolean;
  /** Why it needs a person (null once matched). */
  reason: string | null;
  /** The investors whose identifiers appear in it, for staff to pick from first. */
  candidates: number[];
  /** The words that matched, about 60 characters of the page's text: the administrator's view only. */
  snippet: string | null;
  /** As the form states it; null when it states none, and then staff give it. */
  taxYear: number | null;
  title: string;
  category: typeof k1Category;
  excluded: boolean;
}

export const contentReviewMessages = {
  nameInvestor: 'Name its investor, or exclude it',
  giveTitle: 'The form states no tax year: give it a title, or exclude it',
  nothingToPublish: 'Every row is excluded: nothing would be published',
  noPdf: 'Match by content reads PDFs only: choose an investors/ folder of K-1 PDFs, or one combined PDF',
} as const;

const sectionKey = (source: string, pages: readonly number[]) =>
  `${source} (page${pages.length > 1 ? 's' : ''} ${pages.length > 1 ? `${pages[0]}–${pages.at(-1)}` : pages[0]})`;

/**
 * The rows one PDF gives: one for a PDF that belongs to one investor (or that nobody can be
 * named for as a whole), one per section when its pages belong to several.
 */
export function reviewRows(source: string, read: ReadPdf, identifiers: IdentifierIndex): ReviewRow[] {
  const base = { source, category: k1Category, excluded: false } as const;
  if (read.kind === 'unreadable') {
    return [{ ...base, key: source, pages: null, investorId: null, matched: false, reason: read.reason, candidates: [], snippet: null, taxYear: null, title: '' }];
  }
  const sections = read.pages.length > 1 ? splitCombined(read.pages, identifiers) : [];
  if (sections.length <= 1) {
    const match = matchDocument(read.pages, identifiers);
    const title = match.taxYear === null ? '' : k1Title(match.taxYear);
    return match.kind === 'matched'
      ? [{ ...base, key: source, pages: null, investorId: match.investorId, matched: true, reason: null, candidates: [match.investorId], snippet: match.snippet, taxYear: match.taxYear, title }]
      : [{ ...base, key: source, pages: null, investorId: null, matched: false, reason: match.reason, candidates: match.candidates, snippet: null, taxYear: match.taxYear, title }];
  }
  return sections.map((section) => {
    const title = section.taxYear === null ? '' : k1Title(section.taxYear);
    const key = sectionKey(source, section.pages);
    return section.kind === 'matched'
      ? { ...base, key, pages: section.pages, investorId: section.investorId, matched: true, reason: null, candidates: [section.investorId], snippet: section.snippet, taxYear: section.taxYear, title }
      : { ...base, key, pages: section.pages, investorId: null, matched: false, reason: section.reason, candidates: section.candidates, snippet: null, taxYear: section.taxYear, title };
  });
}

/** Staff name the investor of a row (or take the name back with null). */
export function pickInvestor(row: ReviewRow, investorId: number | null): ReviewRow {
  return { ...row, investorId, matched: false, reason: investorId === null ? row.reason ?? contentReviewMessages.nameInvestor : null };
}

/** Staff give the tax year the form did not state: the title follows it unless they wrote their own. */
export function setTaxYear(row: ReviewRow, taxYear: number | null): ReviewRow {
  const titleFollows = row.title === '' || (row.taxYear !== null && row.title === k1Title(row.taxYear));
  return { ...row, taxYear, title: titleFollows ? (taxYear === null ? '' : k1Title(taxYear)) : row.title };
}

/** What stops a row from being published, or null. Excluded rows stop nothing. */
export function rowProblem(row: ReviewRow): string | null {
  if (row.excluded) return null;
  if (row.investorId === null) return row.reason ?? contentReviewMessages.nameInvestor;
  if (row.title.trim() === '') return contentReviewMessages.giveTitle;
  return null;
}

/** The review's sentence against confirming it, or null when every row is ready or excluded. */
export function reviewProblem(rows: readonly ReviewRow[]): string | null {
  const open = rows.filter((row) => rowProblem(row) !== null).length;
  if (open > 0) return `${open} row${open === 1 ? ' needs' : 's need'} a person: name each one's investor and title, or exclude it`;
  if (rows.every((row) => row.excluded)) return contentReviewMessages.nothingToPublish;
  return null;
}

// eslint-disable-next-line no-control-regex -- control characters are what it removes from a file name
const unsafeInName = /[\u0000-\u001f\u007f/\\:*?"<>|]+/g;

/**
 * The manifest's text. Its cells are file names and titles that must come back as they are, so no
 * formula guard is added (csv.ts's toCsv would prefix a quote); the names this file makes up start
 * with a letter or digit, and the rest are the folder's own.
 */
const manifestCsv = (rows: readonly (readonly string[])[]) => Papa.unparse(rows as string[][], { newline: '\r\n', escapeFormulae: false }) + '\r\n';

/** "Smith Family Trust 2025 K-1.pdf": a section's file, after its investor and tax year. */
function sectionFileName(investor: ReviewInvestor | undefined, row: ReviewRow): string {
  const who = (investor?.entity || investor?.name || '').replace(unsafeInName, ' ').replace(/\s+/g, ' ').trim().replace(/^[=+\-@'\s]+/, '').slice(0, 100) || 'Investor';
  return `${who} ${row.taxYear ?? 'K-1'}${row.taxYear === null ? '' : ' K-1'}.pdf`;
}

/** Each row's file name in the manifest: a whole file keeps its own, a section is named for its investor. */
export function reviewFileNames(rows: readonly ReviewRow[], investors: ReadonlyMap<number, ReviewInvestor>): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set(rows.filter((row) => row.pages === null).map((row) => row.source.toLowerCase()));
  for (const row of rows) {
    if (row.pages === null) {
      names.set(row.key, row.source);
      continue;
    }
    const wanted = sectionFileName(row.investorId === null ? undefined : investors.get(row.investorId), row);
    let name = wanted;
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = wanted.replace(/\.pdf$/, ` (${n}).pdf`);
    taken.add(name.toLowerCase());
    names.set(row.key, name);
  }
  return names;
}

/** The manifest of the rows staff confirmed, with the file name each row is sent under. */
export function reviewManifest(
  rows: readonly ReviewRow[],
  investors: ReadonlyMap<number, ReviewInvestor>,
): { csvText: string; files: { row: ReviewRow; fileName: string }[] } {
  const names = reviewFileNames(rows, investors);
  const chosen = rows.filter((row) => !row.excluded && rowProblem(row) === null);
  const files = chosen.map((row) => ({ row, fileName: names.get(row.key)! }));
  const lines = files.map(({ row, fileName }) => [investors.get(row.investorId!)?.email ?? '', fileName, row.category, row.title.trim()]);
  return { csvText: manifestCsv([[...manifestRequiredColumns], ...lines]), files };
}

/** The draft's own column, which a manifest's reader passes over: why the row needs a person. */
export const draftReasonColumn = 'needs_a_person';

/**
 * The rows nobody could be named for, as a manifest with the e-mail left blank and the reason
 * beside it, for staff to complete and drop back as manifest.csv.
 */
export function draftManifest(rows: readonly ReviewRow[], investors: ReadonlyMap<number, ReviewInvestor>): string {
  const names = reviewFileNames(rows, investors);
  const open = rows.filter((row) => !row.excluded && rowProblem(row) !== null);
  const candidateEmails = (row: ReviewRow) => row.candidates.map((id) => investors.get(id)?.email).filter(Boolean).join(' or ');
  const lines = open.map((row) => {
    const reason = rowProblem(row) ?? contentMatchingMessages.noIdentifier;
    const candidates = candidateEmails(row);
    return [row.investorId === null ? '' : (investors.get(row.investorId)?.email ?? ''), names.get(row.key)!, row.category, row.title, candidates ? `${reason} (candidates: ${candidates})` : reason];
  });
  return manifestCsv([[...manifestRequiredColumns, draftReasonColumn], ...lines]);
}
