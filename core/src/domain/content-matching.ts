// Which investor a K-1 belongs to, from the text in it: one pure rule that the
// administrator's dry run and the server both apply to the text pdfjs reads, so that the preview
// promises only what publishing will do. A document is given to an investor only when that
// investor's identifier is in its text and no other investor's is; everything else needs a
// person, who is shown the candidates. Nothing is ever matched by similarity: an identifier is
// in the text word for word, after normalizeIdentifier, or it is not there at all.

import type { DocumentCategory } from './enums';
import { normalizeIdentifier, readWords, wordHash } from './content-words';

export { normalizeIdentifier } from './content-words';

/** An investor as the rule reads them: their full name, entity and the identifiers staff added. */
export interface IdentifiedInvestor {
  id: number;
  /** The full name ('' when the account has only an entity). */
  name: string;
  entity: string;
  /** Added by administrators: "Smith Family Trust dtd 3/1/2001", or a TIN's last four digits. */
  identifiers: readonly string[];
}

/**
 * 'words': found as a run of whole words. 'last-4': the last four digits of the partner's TIN,
 * found only where the form shows them masked ("XXX-XX-1234", "***-**-1234", "**-***1234").
 */
export type IdentifierKind = 'words' | 'last-4';

export interface InvestorIdentifier {
  investorId: number;
  /** As it was typed or stored. */
  identifier: string;
  kind: IdentifierKind;
  /** The normalized words, or the four digits of a last-4. */
  normalized: string;
  /** The other investors with the same normalized identifier: when any, it identifies none of them. */
  sharedWith: readonly number[];
}

interface IdentifierEntry {
  /** The identifier as its first owner has it, for sentences. */
  identifier: string;
  /** Ascending; more than one means the identifier is shared and picks nobody. */
  owners: readonly number[];
}

interface WordNode {
  next: Map<string, WordNode>;
  entry: IdentifierEntry | null;
}

/**
 * Every investor's identifiers, normalized once per batch: matching a document then costs a
 * hash per word of its text and a Map lookup per word some identifier has, whatever the number
 * of investors.
 */
export interface IdentifierIndex {
  /** Each investor's identifiers, for the administrator to see which are shared. */
  identifiers: readonly InvestorIdentifier[];
  /** The word identifiers as a trie of their words (read by matchDocument and splitCombined). */
  words: WordNode;
  /** The last-4 identifiers by their four digits. */
  lastFours: ReadonlyMap<string, IdentifierEntry>;
  /** The wordHash of every word an identifier or a tax year's phrase has: no other word is read. */
  vocabulary: ReadonlySet<number>;
}

export type ContentMatch =
  | { kind: 'matched'; investorId: number; snippet: string; taxYear: number | null }
  | { kind: 'needs-person'; reason: string; candidates: number[]; taxYear: number | null };

/** A range of consecutive pages of a combined PDF (1-based) and whom they belong to. */
export type CombinedSection = { pages: number[] } & ContentMatch;

/** Where a sentence is about: a whole PDF, or some pages of a combined one. */
type Place = 'in this PDF' | 'on these pages';

export const contentMatchingMessages = {
  scan: 'This PDF has no text to read (a scan): name its investor',
  noIdentifier: "No investor's name, entity or identifier appears in this PDF: name its investor",
  beforeFirstIdentifier:
    "No investor's name, entity or identifier appears on these pages, which come before the first page that has one: name their investor",
  severalInvestors: (place: Place) => `More than one investor's name, entity or identifier appears ${place}: name its investor`,
  /** "A last-4 that agrees while the name disagrees" needs a person. */
  lastFourDisagrees: (place: Place) =>
    `The name ${place} is one investor's and the TIN's last four digits are another's: name its investor`,
  lastFourAlone: (place: Place) =>
    `Only a TIN's last four digits appear ${place}, and they confirm an investor's name but never name one alone: name its investor`,
  /** "John Smith Jr" is not John Smith: a name that goes on may be another partner's. */
  nameGoesOn: (identifier: string, longer: string, place: Place) =>
    `“${identifier}” appears ${place} only as part of a longer name, “${longer}”, which may be another partner's: name its investor`,
  shared: (identifier: string, place: Place) =>
    `“${identifier}” appears ${place} and identifies more than one investor: give each an identifier of their own, or name its investor`,
  /** For the server when an administrator saves an identifier another account already has. */
  identifierTaken: (identifier: string, emails: readonly string[]) =>
    `“${identifier}” already identifies ${inWords(emails)}: an identifier two investors share tells neither apart, so add one that only this investor's K-1 shows`,
} as const;

function inWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

// ---- Identifiers' shapes ------------------------------------------------------------------

// A last-4 as staff type it: four digits, alone or behind a mask ("XXX-XX-1234", "***-**-1234").
const lastFourShape = /^(?:x+ )*x*(\d{4})$/;

/** How an identifier is looked for, and the key two investors' identifiers are compared by. */
function classify(identifier: string): { kind: IdentifierKind; normalized: string } | null {
  const normalized = normalizeIdentifier(identifier);
  if (!normalized) return null;
  const lastFour = lastFourShape.exec(normalized);
  if (lastFour) return { kind: 'last-4', normalized: lastFour[1]! };
  return { kind: 'words', normalized };
}

const keyOf = (c: { kind: IdentifierKind; normalized: string }) => `${c.kind}:${c.normalized}`;

/**
 * The form two investors' identifiers are compared by, for the server to store an added one
 * under a unique index: the normalized words, or a last-4's four digits (so "XXX-XX-1234" and
 * "1234" are one key). A word identifier never has a last-4's shape, so the two kinds cannot
 * collide. Null for a text with no word in it.
 */
export function identifierKey(identifier: string): string | null {
  return classify(identifier)?.normalized ?? null;
}

// ---- Identifiers --------------------------------------------------------------------------

/**
 * The identifiers of every investor: their full name, their entity and those staff added, each
 * normalized once. One that two investors have (two John Smiths) is kept but identifies neither:
 * each then needs an identifier of their own before a document can be given to one of them.
 */
export function investorIdentifiers(investors: readonly IdentifiedInvestor[]): IdentifierIndex {
  const byKey = new Map<string, { kind: IdentifierKind; normalized: string; identifier: string; owners: number[] }>();
  const own: { investorId: number; identifier: string; key: string }[] = [];
  for (const investor of investors) {
    const seen = new Set<string>();
    for (const identifier of [investor.name, investor.entity, ...investor.identifiers]) {
      const classified = classify(identifier);
      if (!classified) continue;
      const key = keyOf(classified);
      if (seen.has(key)) continue;
      seen.add(key);
      own.push({ investorId: investor.id, identifier: identifier.trim(), key });
      const shared = byKey.get(key);
      if (shared) shared.owners.push(investor.id);
      else byKey.set(key, { ...classified, identifier: identifier.trim(), owners: [investor.id] });
    }
  }

  const words: WordNode = { next: new Map(), entry: null };
  const lastFours = new Map<string, IdentifierEntry>();
  for (const item of byKey.values()) {
    const entry: IdentifierEntry = { identifier: item.identifier, owners: [...new Set(item.owners)].sort((a, b) => a - b) };
    if (item.kind === 'last-4') {
      lastFours.set(item.normalized, entry);
      continue;
    }
    let node = words;
    for (const word of item.normalized.split(' ')) {
      let next = node.next.get(word);
      if (!next) node.next.set(word, (next = { next: new Map(), entry: null }));
      node = next;
    }
    node.entry = entry;
  }

  const identifiers = own.map(({ investorId, identifier, key }): InvestorIdentifier => {
    const item = byKey.get(key)!;
    return {
      investorId,
      identifier,
      kind: item.kind,
      normalized: item.normalized,
      sharedWith: item.owners.filter((owner) => owner !== investorId),
    };
  });
  const vocabulary = new Set([...taxYearWords, ...nameGoesOnWords].map(wordHash));
  for (const item of byKey.values()) {
    if (item.kind === 'words') for (const word of item.normalized.split(' ')) vocabulary.add(wordHash(word));
  }
  return { identifiers, words, lastFours, vocabulary };
}

/**
 * The sentence that refuses `candidate` as an added identifier when another investor already
 * has it (as their name, entity or an added identifier; "XXX-XX-1234" and "1234" are the same
 * last-4), or null when it is free. `others` are every investor but the one it is for.
 */
export function identifierConflict(
  candidate: string,
  others: readonly (IdentifiedInvestor & { email: string })[],
): string | null {
  const classified = classify(candidate);
  if (!classified) return null;
  const key = keyOf(classified);
  const holders = others.filter((other) =>
    [other.name, other.entity, ...other.identifiers].some((identifier) => {
      const theirs = classify(identifier);
      return theirs !== null && keyOf(theirs) === key;
    }),
  );
  if (holders.length === 0) return null;
  return contentMatchingMessages.identifierTaken(candidate.trim(), holders.map((h) => h.email));
}

// ---- Reading a page -----------------------------------------------------------------------

// A TIN that shows only its last four digits: at least three mask characters (X, * or a bullet,
// with dashes or spaces between) and then exactly four digits. A last-4 counts nowhere else: the
// partnership's EIN is printed in full on every copy, and bare digits are dates, amounts and ZIP+4
// codes ("91101-1234"), so four digits anywhere would point to investors at random.
const maskedTin = /(?<![\p{L}\p{N}*•●＊])((?:[x*•●＊][\s-]*){3,})(\d{4})(?![\p{L}\p{N}])/giu;

/**
 * Words that, right after an identifier, make it part of another name: a generation ("John Smith
 * Jr", "Thompson Family Trust II") or an entity of the person's ("Sarah Thompson Trust", "Ann
 * Quill IRA"). That partner may have no account, and then the shorter name would pick an
 * investor whose K-1 it is not. An identifier that itself ends so (an added "John Smith IRA") is
 * found whole first, as the longest.
 */
const nameGoesOnWords = ['jr', 'sr', 'junior', 'senior', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', '2nd', '3rd', 'trust', 'llc', 'lp', 'llp', 'inc', 'ira', 'estate', 'foundation'];
const goesOn = new Set(nameGoesOnWords);

interface Hit {
  entry: IdentifierEntry;
  kind: IdentifierKind;
  /** The identifier with the word that continues it ("John Smith Jr"), when one does. */
  longer?: string;
  /** Where it is in the page's text, for the snippet. */
  start: number;
  end: number;
}

interface PageReading {
  text: string;
  words: readonly string[];
  blank: boolean;
  hits: Hit[];
}

function readPage(text: string, index: IdentifierIndex): PageReading {
  const { words, starts, ends } = readWords(text, index.vocabulary);
  // The longest identifier at each word, and none that lies inside a longer one found earlier:
  // "The Jane Doe Trust" is that trust's entity, not also a sight of Jane Doe.
  const hits: Hit[] = [];
  let coveredTo = 0;
  for (let i = 0; i < words.length; i += 1) {
    if (words[i] === '') continue;
    let node: WordNode | undefined = index.words;
    let longest = -1;
    let entry: IdentifierEntry | null = null;
    for (let j = i; j < words.length; j += 1) {
      node = node.next.get(words[j]!);
      if (!node) break;
      if (node.entry) [longest, entry] = [j, node.entry];
    }
    if (!entry || longest < coveredTo) continue;
    coveredTo = longest + 1;
    const next = words[longest + 1];
    const longer = next !== undefined && goesOn.has(next) ? text.slice(starts[i]!, ends[longest + 1]!).replace(/\s+/g, ' ') : undefined;
    hits.push({ entry, kind: 'words', start: starts[i]!, end: ends[longest]!, ...(longer ? { longer } : {}) });
  }
  for (const m of text.matchAll(maskedTin)) {
    const entry = index.lastFours.get(m[2]!);
    if (entry) hits.push({ entry, kind: 'last-4', start: m.index, end: m.index + m[0].length });
  }
  return { text, words, blank: !/[^\s\p{Cf}]/u.test(text), hits };
}

type Verdict =
  | { kind: 'investor'; investorId: number; hit: Hit; text: string }
  | { kind: 'none' }
  | { kind: 'needs-person'; reason: (place: Place) => string; candidates: number[] };

/**
 * The rule, on the hits of a document or of a page. Only a word identifier that one investor
 * alone has (their name, entity, or an added one) can pick an investor, and then only when every
 * identifier in the text is also theirs, shared ones included (the two John Smiths' name beside
 * one's trust picks that one). `previous`, on a page of a combined PDF, is the investor of the
 * page before: a page that picks nobody but whose identifiers are all theirs (a state schedule
 * showing only the masked TIN) is theirs too.
 *
 * A last-4 only confirms: four digits are one in ten thousand, and among a thousand investors
 * some share them, so a last-4 alone never picks an investor. One that is another investor's
 * than the name's is a conflict. A masked TIN whose digits are nobody's is not counted against
 * anyone: the portal may not know every investor's last four.
 */
function verdict(readings: readonly PageReading[], previous: number | null): Verdict {
  const hits = readings.flatMap((r) => r.hits);
  if (hits.length === 0) return { kind: 'none' };
  const goingOn = hits.find((h) => h.longer !== undefined);
  if (goingOn) {
    const candidates = [...new Set(hits.flatMap((h) => h.entry.owners))].sort((a, b) => a - b);
    return { kind: 'needs-person', reason: (place) => contentMatchingMessages.nameGoesOn(goingOn.entry.identifier, goingOn.longer!, place), candidates };
  }
  const picks = (h: Hit) => h.kind === 'words' && h.entry.owners.length === 1;
  const pickers = new Set(hits.filter(picks).map((h) => h.entry.owners[0]!));
  const candidates = [...new Set(hits.flatMap((h) => h.entry.owners))].sort((a, b) => a - b);
  const everyHitIs = (id: number) => hits.every((h) => h.entry.owners.includes(id));

  const picked = pickers.size === 1 ? [...pickers][0]! : null;
  if (picked !== null && everyHitIs(picked)) {
    const reading = readings.find((r) => r.hits.some(picks))!;
    return { kind: 'investor', investorId: picked, hit: reading.hits.find(picks)!, text: reading.text };
  }
  if (picked !== null) {
    const nameClash = hits.some((h) => h.kind === 'words' && !h.entry.owners.includes(picked));
    const reason = nameClash ? contentMatchingMessages.severalInvestors : contentMatchingMessages.lastFourDisagrees;
    return { kind: 'needs-person', reason, candidates };
  }
  if (pickers.size > 1) return { kind: 'needs-person', reason: contentMatchingMessages.severalInvestors, candidates };

  if (previous !== null && everyHitIs(previous)) {
    const reading = readings.find((r) => r.hits.length > 0)!;
    return { kind: 'investor', investorId: previous, hit: reading.hits[0]!, text: reading.text };
  }
  // Nothing picks an investor; a page that would have followed the one before lists its investor too.
  const named = previous === null ? candidates : [...new Set([...candidates, previous])].sort((a, b) => a - b);
  const shared = hits.find((h) => h.kind === 'words');
  if (shared) {
    return { kind: 'needs-person', reason: (place) => contentMatchingMessages.shared(shared.entry.identifier, place), candidates: named };
  }
  return { kind: 'needs-person', reason: contentMatchingMessages.lastFourAlone, candidates: named };
}

const snippetLength = 60;

/** The words around a hit, about 60 characters, cut between words, whitespace collapsed. */
function snippetAround(text: string, hit: Hit): string {
  const room = Math.max(12, Math.floor((snippetLength - (hit.end - hit.start)) / 2));
  let from = Math.max(0, hit.start - room);
  let to = Math.min(text.length, hit.end + room);
  if (from > 0 && /\S/.test(text[from - 1]!)) {
    const space = text.slice(from, hit.start).search(/\s/);
    from = space === -1 ? hit.start : from + space + 1;
  }
  if (to < text.length && /\S/.test(text[to]!)) {
    const space = text.slice(hit.end, to).search(/\s(?=\S*$)/);
    to = space === -1 ? hit.end : hit.end + space;
  }
  const words = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${words}${to < text.length ? '…' : ''}`;
}

// ---- Documents ----------------------------------------------------------------------------

/** Whom a PDF belongs to, from its pages' text; `identifiers` from investorIdentifiers, built once. */
export function matchDocument(pages: readonly string[], identifiers: IdentifierIndex): ContentMatch {
  const readings = pages.map((page) => readPage(page, identifiers));
  const taxYear = taxYearOf(allWords(readings.map((r) => r.words)));
  if (readings.every((r) => r.blank)) return { kind: 'needs-person', reason: contentMatchingMessages.scan, candidates: [], taxYear };
  const found = verdict(readings, null);
  if (found.kind === 'investor') {
    return { kind: 'matched', investorId: found.investorId, snippet: snippetAround(found.text, found.hit), taxYear };
  }
  if (found.kind === 'none') {
    return { kind: 'needs-person', reason: contentMatchingMessages.noIdentifier, candidates: [], taxYear };
  }
  return { kind: 'needs-person', reason: found.reason('in this PDF'), candidates: found.candidates, taxYear };
}

/**
 * A combined PDF (many investors' K-1s in one file) cut into sections of consecutive pages.
 * Each page belongs to the investor whose identifier it carries; a page that carries none
 * follows the page before it (continuation pages, state schedules). Pages before the first
 * identifier, and pages the rule cannot give to one investor, need a person; so do the pages
 * that follow them without an identifier of their own, since they continue what nobody could name.
 */
export function splitCombined(pages: readonly string[], identifiers: IdentifierIndex): CombinedSection[] {
  const readings = pages.map((page) => readPage(page, identifiers));
  if (readings.every((r) => r.blank)) {
    const all = pages.map((_, i) => i + 1);
    return [{ pages: all, kind: 'needs-person', reason: contentMatchingMessages.scan, candidates: [], taxYear: null }];
  }

  type Open = { pages: number[]; words: (readonly string[])[] } & (
    | { kind: 'matched'; investorId: number; snippet: string }
    | { kind: 'needs-person'; reason: string; candidates: number[] }
  );
  const sections: Open[] = [];
  readings.forEach((reading, i) => {
    const page = i + 1;
    const last = sections.at(-1);
    const joinLast = () => {
      last!.pages.push(page);
      last!.words.push(reading.words);
    };
    const found = verdict([reading], last?.kind === 'matched' ? last.investorId : null);
    if (found.kind === 'none' && last) return joinLast();
    if (found.kind === 'investor') {
      if (last?.kind === 'matched' && last.investorId === found.investorId) return joinLast();
      const snippet = snippetAround(found.text, found.hit);
      sections.push({ pages: [page], words: [reading.words], kind: 'matched', investorId: found.investorId, snippet });
      return;
    }
    const reason = found.kind === 'none' ? contentMatchingMessages.beforeFirstIdentifier : found.reason('on these pages');
    const candidates = found.kind === 'none' ? [] : found.candidates;
    if (last?.kind === 'needs-person' && last.reason === reason && sameIds(last.candidates, candidates)) return joinLast();
    sections.push({ pages: [page], words: [reading.words], kind: 'needs-person', reason, candidates });
  });
  return sections.map(({ words, ...section }) => ({ ...section, taxYear: taxYearOf(allWords(words)) }));
}

const allWords = (pages: readonly (readonly string[])[]): readonly string[] => ([] as string[]).concat(...pages);

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

// ---- Tax year and title -------------------------------------------------------------------

/** The words of the phrases a tax year is read from, besides the year and the form's number. */
const taxYearWords = ['for', 'calendar', 'year', 'schedule', 'k1', 'form'];

const isYear = (word: string | undefined) => word !== undefined && /^(?:19|20)\d\d$/.test(word);

/**
 * The tax year the form states ("For calendar year 2025", or the year beside "Schedule K-1", as
 * in "Schedule K-1 (Form 1065) 2025"), never the batch's. Null when it states none, or states
 * two different years: a guess would file a K-1 under the wrong year.
 */
export function readTaxYear(text: string): number | null {
  return taxYearOf(readWords(text).words);
}

// Read from the normalized words, so "Schedule K-1 (Form 1120-S) 2025" is schedule k 1 form
// 1120 s 2025. The form's number is skipped, never read as a year.
function taxYearOf(words: readonly string[]): number | null {
  const years = new Set<string>();
  words.forEach((word, i) => {
    if (word === 'calendar' && words[i - 1] === 'for' && words[i + 1] === 'year' && isYear(words[i + 2])) years.add(words[i + 2]!);
    if (word !== 'schedule') return;
    let next = words[i + 1] === 'k1' ? i + 2 : words[i + 1] === 'k' && words[i + 2] === '1' ? i + 3 : -1;
    if (next === -1) return;
    if (isYear(words[i - 1])) years.add(words[i - 1]!);
    if (words[next] === 'form' && /^\d{4}$/.test(words[next + 1] ?? '')) next += /^[a-z]$/.test(words[next + 2] ?? '') ? 3 : 2;
    if (isYear(words[next])) years.add(words[next]!);
  });
  return years.size === 1 ? Number([...years][0]) : null;
}

/** The category a K-1 is published under. */
export const k1Category = 'tax' satisfies DocumentCategory;

/** A K-1's default title: "2025 Schedule K-1". */
export function k1Title(taxYear: number): string {
  return `${taxYear} Schedule K-1`;
}
