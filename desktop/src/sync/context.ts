// What the sync's steps (property uploads, manifest batches, the digest) share with the engine
// that runs them: the folder, the portal, the ledger, and the engine's few ways of recording
// an outcome, so that each step is a file of its own and every outcome is recorded one way.

import type { BackoffOptions } from './backoff';
import type { Ledger, LedgerEntry, LedgerState } from './ledger';
import type { Portal } from './portal';

/**
 * A file's change of state, or the sync's own (`path` '.'): one event per change, never one
 * per attempt. Beyond the ledger's states: `already-published` (nothing new was published),
 * `missing` (deleted locally), `still-being-written`, `skipped`, `portal-away` and `portal-back`
 * (said once each per outage), and `stopped` (a refused sign-in or a lost lock).
 */
export interface SyncEvent {
  path: string;
  state: LedgerState | 'already-published' | 'missing' | 'still-being-written' | 'skipped' | 'portal-away' | 'portal-back' | 'stopped';
  message: string;
  documentId?: number | null;
}

export interface SyncContext {
  readonly folder: string;
  readonly portal: Portal;
  readonly ledger: Ledger;
  /** E-mail investors (deferred to the digest) about what is published. */
  readonly notifies: boolean;
  readonly maxAttempts: number;
  readonly backoff: BackoffOptions;
  stopped(): boolean;
  /** Records a change and says it in one event (its state as the report will show it). */
  setState(relative: string, change: Partial<LedgerEntry>, message: string): void;
  emit(event: SyncEvent): void;
  /** Plans the folder again at the next tick. */
  wake(): void;
  /** A failed attempt: waited out, retried, left for a person, or the sync stopped, by what failed. */
  failed(relative: string, error: unknown, attempts: number): void;
  markMissing(relative: string): void;
  /** A request was answered: the portal is reachable (again). */
  reached(): void;
  /** A finished file's first bytes (documentHeadBytes), which the portal checks its type by. */
  headOf(relative: string): Uint8Array | undefined;
}
