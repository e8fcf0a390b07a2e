import type { LedgerEntry, LedgerState } from '../../sync/ledger';
import type { FileProgress, FileProgressState } from '../../shared/api';

const progressStates: Record<LedgerState, FileProgressState> = {
  waiting: 'waiting',
  publishing: 'sending',
  published: 'published',
  failed: 'failed',
  'needs-attention': 'needs-attention',
};

const defaultMessages: Record<FileProgressState, string> = {
  waiting: 'Waiting to be sent.',
  sending: 'Sending…',
  published: 'Published.',
  failed: 'Failed; will be tried again.',
  'needs-attention': 'Needs attention.',
};

/**
 * The files of a sync engine's ledger as the screens show them, in path order: the files still
 * settling (being read) first as waiting, then each ledger entry that is still in the folder.
 */
export function fileProgressOf(entries: readonly LedgerEntry[], settling: readonly string[] = []): FileProgress[] {
  const known = new Set(entries.map((e) => e.path));
  const files: FileProgress[] = settling
    .filter((path) => !known.has(path))
    .map((path) => ({ path, state: 'waiting', message: 'Being read.' }));
  for (const entry of entries) {
    if (entry.missing) continue;
    const state = progressStates[entry.state];
    files.push({ path: entry.path, state, message: entry.lastError ?? defaultMessages[state] });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Files with a final outcome: published, or waiting for a person. */
export function doneCount(files: readonly FileProgress[]): number {
  return files.filter((f) => f.state === 'published' || f.state === 'needs-attention').length;
}
