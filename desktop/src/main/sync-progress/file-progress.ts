import type { Ledger } from '../../sync/ledger';
import { countOutcomes, finalOutcomes, summarySentence, syncReport, type ReportItem } from '../../sync/report';
import type { SyncEngine } from '../../sync/sync-engine';
import type { FileProgress, FileProgressState } from '../../shared/api';

export interface Progress {
  files: FileProgress[];
  /** Files with a final outcome (published, already on the portal, needing a person, still being written, skipped). */
  done: number;
  counts: Record<FileProgressState, number>;
  summary: string;
}

/**
 * The files and manifest rows of a sync as the screens show them, in path order: the engine's
 * report while it runs, else the report of its ledger (an upload paused or finished). The
 * report's outcomes are the screens' states, one for one, so that the counts and the summary
 * are the command line's: the app and a headless sync never tell the same folder differently.
 * `since`: when the run being shown began, for a ledger without its engine (what was published before counts as already on the portal).
 */
export function progressOf(engine: SyncEngine | null, ledger: Pick<Ledger, 'all' | 'skipped'> | null, since?: number): Progress {
  const report: ReportItem[] = engine ? engine.status().report : syncReport(ledger?.all() ?? [], { skipped: ledger?.skipped ?? [], since });
  const files = report.map((item) => ({
    path: item.path,
    ...(item.row === undefined ? {} : { row: item.row }),
    state: item.outcome,
    message: item.message,
  }));
  const counts = countOutcomes(report);
  return {
    files,
    done: files.filter((f) => (finalOutcomes as readonly string[]).includes(f.state)).length,
    counts,
    summary: summarySentence(counts),
  };
}
