// What the sync reports: every file and every manifest row ends in one clear state,
// the same one in the command's summary, its exit code and the app's screens. "Done: 12 of 12"
// while five files needed a person is what this replaces.

import { hasNoReader, publishingMessages } from '@everest/core/domain';
import type { SyncEvent } from './context';
import type { LedgerEntry } from './ledger';

/**
 * Text from the folder (a file name, a lock's fields: whoever can write the folder wrote them) as
 * printed or shown: control characters, which a terminal would obey, become '?'.
 */
export function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, '?');
}

/**
 * - `published`: this run published it (a new document or a new version);
 * - `already-published`: the portal held it already (published by an earlier run, or by
 *   someone else); nothing new was published;
 * - `needs-attention`: a person must act, for the reason given;
 * - `still-being-written`: not finished yet (changing, held open, its end missing);
 * - `skipped`: left out by rule (system and editor files, a copy of another file);
 * - `waiting`, `sending`, `failed` (will be tried again): on the way to one of the above.
 */
export type SyncOutcome =
  | 'published'
  | 'already-published'
  | 'needs-attention'
  | 'still-being-written'
  | 'skipped'
  | 'waiting'
  | 'sending'
  | 'failed';

export interface ReportItem {
  /** Relative to the folder. */
  path: string;
  /** For a manifest's row: its line number in the file (the header is line 1). */
  row?: number;
  outcome: SyncOutcome;
  message: string;
  /** Said of a published document all the same: no investor can see it (noReaderWarning). */
  warning?: string;
}

/** The outcomes a run ends in, in the order a summary names them. */
export const finalOutcomes = ['published', 'already-published', 'needs-attention', 'still-being-written', 'skipped'] as const;

const defaultMessages: Record<SyncOutcome, string> = {
  published: 'Published.',
  'already-published': 'Already on the portal: nothing new was published.',
  'needs-attention': 'Needs attention.',
  'still-being-written': 'Still being written.',
  skipped: 'Skipped by rule: a system or editor file, not a document.',
  waiting: 'Waiting to be sent.',
  sending: 'Sending…',
  failed: 'Failed; will be tried again.',
};

/**
 * The panel's warning for a property document only administrators could read (core's
 * sentence, from the server's document-recipients answer), or null when investors can read it.
 */
export function noReaderWarning(property: string, recipients: { recipients: number; investorRelations: boolean }): string | null {
  if (!hasNoReader(recipients)) return null;
  return `${publishingMessages.noReader}. ${publishingMessages.noReaderBecause(property, recipients.investorRelations)}`;
}

/** The sentence for a document that stays filed under another period than its folder's. */
export function filedElsewhereSentence(filed: { documentId: number; year: number; quarter: string }, folderPeriod: string): string {
  return `Already on the portal as document ${filed.documentId}, filed under ${filed.quarter} ${filed.year}: moving the file to ${folderPeriod} did not refile it, and nothing was published. If ${folderPeriod} is right, change the document's quarter in the admin panel (Documents); otherwise move the file back.`;
}

/**
 * Whether this file's content was published by the run that began at `since`: a file this sync
 * published in an earlier run, or one the portal already held, is "already on the portal".
 * Without `since`, everything this sync published counts (the ledger's whole history).
 */
export function publishedInRun(entry: LedgerEntry, since: number | undefined): boolean {
  if (entry.state !== 'published' || entry.alreadyOnPortal || entry.filedElsewhere) return false;
  return since === undefined || (entry.publishedAt ?? Number.NEGATIVE_INFINITY) >= since;
}

function outcomeOf(entry: LedgerEntry, since: number | undefined): { outcome: SyncOutcome; message: string | null } {
  switch (entry.state) {
    case 'published':
      if (entry.filedElsewhere) return { outcome: 'needs-attention', message: entry.lastError };
      return { outcome: publishedInRun(entry, since) ? 'published' : 'already-published', message: null };
    case 'waiting':
      return { outcome: 'waiting', message: entry.lastError };
    case 'publishing':
      return { outcome: 'sending', message: null };
    case 'failed':
      // Given up (no retry planned): a person must look.
      return { outcome: entry.nextRetryAt === null ? 'needs-attention' : 'failed', message: entry.lastError };
    case 'needs-attention':
      return { outcome: entry.twinOf ? 'skipped' : 'needs-attention', message: entry.lastError };
  }
}

/**
 * The report of a folder: each ledger entry still in the folder, each problem row of a manifest,
 * the files still being written and those skipped by rule; in path order. `since`: when the run
 * began, so that only what it sent counts as published. A manifest is not a document: it is an
 * item only when it needs a person (refused whole, or its batch given up).
 */
export function syncReport(
  entries: readonly LedgerEntry[],
  extra: { writing?: readonly { path: string; reason: string | null }[]; skipped?: readonly string[]; since?: number } = {},
): ReportItem[] {
  const writing = new Map((extra.writing ?? []).map((w) => [w.path, w.reason]));
  const items: ReportItem[] = [];
  for (const entry of entries) {
    if (entry.missing || writing.has(entry.path)) continue;
    const { outcome, message } = outcomeOf(entry, extra.since);
    const itemOfItsOwn = entry.kind !== 'manifest' || outcome === 'needs-attention' || outcome === 'failed';
    const warning = (outcome === 'published' || outcome === 'already-published') && entry.noReader ? entry.noReader : null;
    if (warning) items.push({ path: entry.path, outcome, message: warning, warning });
    else if (itemOfItsOwn) items.push({ path: entry.path, outcome, message: message ?? defaultMessages[outcome] });
    for (const problem of entry.state === 'published' ? (entry.rowProblems ?? []) : []) {
      items.push({ path: entry.path, row: problem.row, outcome: 'needs-attention', message: problem.reason });
    }
  }
  for (const [path, reason] of writing) items.push({ path, outcome: 'still-being-written', message: reason ?? defaultMessages['still-being-written'] });
  for (const path of extra.skipped ?? []) items.push({ path, outcome: 'skipped', message: defaultMessages.skipped });
  return items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : (a.row ?? 0) - (b.row ?? 0)));
}

export function countOutcomes(items: readonly ReportItem[]): Record<SyncOutcome, number> {
  const counts: Record<SyncOutcome, number> = {
    published: 0,
    'already-published': 0,
    'needs-attention': 0,
    'still-being-written': 0,
    skipped: 0,
    waiting: 0,
    sending: 0,
    failed: 0,
  };
  for (const item of items) counts[item.outcome] += 1;
  return counts;
}

const countWords: Record<SyncOutcome, (n: number) => string> = {
  published: (n) => `${n} published`,
  'already-published': (n) => `${n} already on the portal`,
  'needs-attention': (n) => `${n} ${n === 1 ? 'needs' : 'need'} attention`,
  'still-being-written': (n) => `${n} still being written`,
  skipped: (n) => `${n} skipped by rule`,
  waiting: (n) => `${n} waiting`,
  sending: (n) => `${n} sending`,
  failed: (n) => `${n} failed, will retry`,
};

/**
 * "7 published, 2 already on the portal, 3 need attention, 1 still being written, 4 skipped by
 * rule": every final outcome, even at 0, then the ones on the way when there are any.
 */
export function summarySentence(counts: Record<SyncOutcome, number>): string {
  const parts = finalOutcomes.map((outcome) => countWords[outcome](counts[outcome]));
  for (const outcome of ['waiting', 'sending', 'failed'] as const) if (counts[outcome] > 0) parts.push(countWords[outcome](counts[outcome]));
  return parts.join(', ');
}

/**
 * The state a change shows as: a published file the portal already had (or that an earlier
 * run published), or one filed elsewhere, says so, as the report will count it.
 */
export function eventStateOf(entry: LedgerEntry, since: number): SyncEvent['state'] {
  if (entry.state === 'published' && entry.filedElsewhere) return 'needs-attention';
  if (entry.state === 'published' && entry.kind !== 'manifest' && !publishedInRun(entry, since)) return 'already-published';
  if (entry.state === 'needs-attention' && entry.twinOf) return 'skipped';
  return entry.state;
}
