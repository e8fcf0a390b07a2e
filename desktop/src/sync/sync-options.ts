// What a sync is told (SyncOptions: its folder, its portal, its waits and its manners) and what
// it answers about itself at any moment (SyncStatus): the engine's two faces, kept apart from the
// engine so that the desktop app and the command line read them without the steps behind them.

import type { BackoffOptions } from './backoff';
import type { SyncEvent } from './context';
import type { EmailTold } from './digest';
import type { SyncRunner } from './folder-lock';
import type { Ledger, LedgerEntry, LedgerState } from './ledger';
import type { PdfReaderPool } from './pdf-reader-pool';
import type { Portal } from './portal';
import { countOutcomes, summarySentence, syncReport, type ReportItem, type SyncOutcome } from './report';
import type { Candidate } from './stability';

export interface SyncOptions {
  /** The watched folder (absolute). Only its lock file is ever written there. */
  folder: string;
  /** The ledger's JSON file: outside the watched folder. */
  ledgerFile: string;
  portal: Portal;
  /** Who runs this sync, as the folder's lock names it to a second one (default 'command line'). */
  runBy?: SyncRunner;
  /**
   * How long size and mtime must stand still before a file is read (default 10 s: a scanner
   * pauses about 5 s between pages).
   */
  stabilityMs?: number;
  /**
   * The first wait of a file that appears while the sync watches, whose writer's pauses are not
   * known yet (default twice stabilityMs, at most 10 s, never less than stabilityMs).
   */
  newFileWaitMs?: number;
  /** How often waiting files are looked at again (default a quarter of stabilityMs, at most 1 s). */
  tickMs?: number;
  /** Full scans after the first, catching events that never came (default 5 minutes). */
  rescanMs?: number;
  /** Poll the file system instead of listening to its events: for network shares. */
  poll?: boolean;
  pollIntervalMs?: number;
  /** Watch for changes; false for a one-off run that relies on scans alone. */
  watch?: boolean;
  /**
   * A one-off run: how long a file still being written is waited for before the run ends
   * without it, counted "still being written" (default 3 stability windows).
   */
  writingPatienceMs?: number;
  /** A document whose end is missing this long after its last change is damaged, not being written (default 10 minutes). */
  incompleteAfterMs?: number;
  /**
   * Ask the server to e-mail investors about what is published (default off): one digest per
   * investor per settled batch, for property documents (notify-documents) as for a manifest.
   */
  emailNotification?: boolean;
  /** While watching, how long the folder must be quiet before the digest goes (default 60 s; a one-off run: none). */
  digestQuietMs?: number;
  /** Requests at once (default 2). */
  concurrency?: number;
  /** Attempts before a failing file, or the portal out of reach, is given up (default: retry for ever). */
  maxAttempts?: number;
  backoff?: BackoffOptions;
  /** A lock not refreshed for this long, from another machine, is taken over (default 2 minutes). */
  lockStaleMs?: number;
  /**
   * When the run being reported began (epoch ms; default: when the engine is created): only what
   * was published since counts as published, the rest as already on the portal. A folder upload
   * resumed after a pause passes its own start.
   */
  reportSince?: number;
  /**
   * Match K-1s by content: an investors folder without a manifest.csv is read (each PDF's text),
   * its unique exact matches are published as a manifest of their own, and the rest are written
   * as a manifest draft beside the ledger (content-match.ts). Default off.
   */
  matchContent?: boolean;
  /** The workers that read PDFs for matchContent (default: a pool of the engine's own, ended with it). */
  pdfReaders?: PdfReaderPool;
  /** One event per file and change of state. */
  onEvent?: (event: SyncEvent) => void;
}

export interface SyncStatus {
  /** Why the server could not be reached at the last try, or null. */
  unreachable: string | null;
  /** Why the sync stopped on its own (a refused sign-in, its lock taken over), or null. */
  stoppedBecause: string | null;
  published: LedgerEntry[];
  waiting: LedgerEntry[];
  failed: LedgerEntry[];
  needsAttention: LedgerEntry[];
  /** Files still being written (changing, held open, or their end missing), with why. */
  settling: { path: string; reason: string | null }[];
  /** Every file and manifest row in one outcome (report.ts), and their counts. */
  report: ReportItem[];
  counts: Record<SyncOutcome, number>;
  summary: string;
  /** With e-mail notification: who this run's digests told, of how many documents (corrections among them). */
  emailed: EmailTold;
}

/** The status of a sync from its ledger and what it knows beside: files settling, the portal, why it stopped, who was e-mailed. */
export function statusOf(
  ledger: Pick<Ledger, 'all' | 'skipped'>,
  now: { settling: [string, Candidate][]; since: number; unreachable: string | null; stoppedBecause: string | null; emailed: EmailTold },
): SyncStatus {
  const present = ledger.all().filter((e) => !e.missing);
  const byState = (state: LedgerState) => present.filter((e) => e.state === state);
  const settling = now.settling.map(([p, c]) => ({ path: p, reason: c.writing }));
  const report = syncReport(present, { writing: settling, skipped: ledger.skipped, since: now.since });
  const counts = countOutcomes(report);
  return {
    unreachable: now.unreachable,
    stoppedBecause: now.stoppedBecause,
    published: byState('published'),
    waiting: [...byState('waiting'), ...byState('publishing')],
    failed: byState('failed'),
    needsAttention: byState('needs-attention'),
    settling,
    report,
    counts,
    summary: summarySentence(counts),
    emailed: { ...now.emailed },
  };
}
