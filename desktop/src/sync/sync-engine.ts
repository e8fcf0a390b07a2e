// The watched-folder sync, after the lessons of paperless-ngx's consume folder: events are hints
// and a periodic full scan is the truth; a file is read only once it is finished (stability.ts);
// what was done is written down before and after each request, so that a crash, a restart or a
// lost answer never publishes a file twice. One sync per folder (folder-lock.ts). This file runs
// the steps: scan.ts and seeing.ts (seeing files), stability.ts (waiting until a file is
// finished), decide.ts and plan.ts (deciding), job-queue.ts, property-upload.ts,
// manifest-batch.ts and personal-replacement.ts (sending), failures.ts, failed-attempt.ts and
// reachability.ts (failing, and waiting for the portal), digest.ts (e-mail), ledger.ts (memory)
// and report.ts (outcomes); sync-options.ts says what a sync is told and what it answers.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import { defaultBackoff, type BackoffOptions } from './backoff';
import type { SyncContext, SyncEvent } from './context';
import { ContentMatches } from './content-match';
import { Decider } from './decide';
import { Digest } from './digest';
import { recordFailure } from './failed-attempt';
import { messageOf } from './failures';
import { FolderLock } from './folder-lock';
import { JobQueue } from './job-queue';
import { Ledger, type LedgerEntry } from './ledger';
import { ManifestBatches } from './manifest-batch';
import { PdfReaderPool } from './pdf-reader-pool';
import type { Portal } from './portal';
import { PropertyUploads } from './property-upload';
import { Reachability } from './reachability';
import { eventStateOf } from './report';
import { FolderSight } from './seeing';
import { defaultStabilityMs, Settling } from './stability';
import { statusOf, type SyncOptions, type SyncStatus } from './sync-options';

export type { SyncEvent } from './context';
export type { SyncOptions, SyncStatus } from './sync-options';

export class SyncEngine implements SyncContext {
  readonly folder: string;
  readonly portal: Portal;
  readonly notifies: boolean;
  readonly maxAttempts: number;
  readonly backoff: BackoffOptions;
  private readonly stabilityMs: number;
  private readonly tickMs: number;
  private readonly rescanMs: number;
  private readonly writingPatienceMs: number;
  private readonly reportSince: number;

  private readonly settling: Settling;
  private readonly properties: PropertyUploads;
  private readonly manifests: ManifestBatches;
  private readonly content: ContentMatches | undefined;
  /** The PDF readers this engine started (and ends with it), when it was not given any. */
  private readonly ownReaders: PdfReaderPool | null = null;
  private readonly digest: Digest;

  private readonly jobs: JobQueue;
  private readonly decider: Decider;
  private readonly sight: FolderSight;
  private readonly reach = new Reachability((event) => this.emit(event));
  private timers: NodeJS.Timeout[] = [];
  private halted = false;
  private ticking = false;
  private wakeRequested = false;
  private readonly idleWaiters: (() => void)[] = [];
  private lock: FolderLock | null = null;
  private stopReason: string | null = null;

  private constructor(
    private readonly options: SyncOptions,
    readonly ledger: Ledger,
  ) {
    this.folder = options.folder;
    this.portal = options.portal;
    this.notifies = options.emailNotification ?? false;
    this.maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
    this.backoff = options.backoff ?? defaultBackoff;
    this.stabilityMs = options.stabilityMs ?? defaultStabilityMs;
    this.tickMs = options.tickMs ?? Math.min(1_000, Math.max(20, Math.round(this.stabilityMs / 4)));
    this.rescanMs = options.rescanMs ?? 5 * 60_000;
    this.writingPatienceMs = options.writingPatienceMs ?? 3 * this.stabilityMs;
    this.reportSince = options.reportSince ?? Date.now();
    this.settling = new Settling(this.folder, this.stabilityMs, {
      newFileWaitMs: options.newFileWaitMs,
      incompleteAfterMs: options.incompleteAfterMs ?? 10 * 60_000,
      onStillWriting: (relative, reason) => this.emit({ path: relative, state: 'still-being-written', message: reason }),
    });
    this.properties = new PropertyUploads(this);
    this.manifests = new ManifestBatches(this);
    if (options.matchContent) {
      if (!options.pdfReaders) this.ownReaders = new PdfReaderPool();
      // Beside the ledger, as the ledger is: never in the watched folder.
      const workRoot = `${options.ledgerFile.replace(/\.json$/i, '')}.match-content`;
      this.content = new ContentMatches(this, options.pdfReaders ?? this.ownReaders!, workRoot);
    }
    this.jobs = new JobQueue({
      concurrency: options.concurrency ?? 2,
      // While the portal is away nothing is sent: the probe in tick says when it is back.
      mayStart: () => !this.halted && !this.reach.isAway,
      onUnexpected: (key, error) => this.emit({ path: key.slice(2), state: 'failed', message: `Unexpected: ${messageOf(error)}` }),
      afterEach: () => {
        if (this.halted) return;
        void this.ledger.save();
        this.considerDigest();
        this.jobs.pump();
        this.settleIdle();
      },
    });
    this.decider = new Decider(this, {
      rootName: path.basename(options.folder),
      rescanMs: this.rescanMs,
      properties: this.properties,
      manifests: this.manifests,
      content: this.content,
      settlingBelow: (folderPrefix) => this.settling.candidates.entries().some(([p]) => p.startsWith(folderPrefix)),
      enqueue: (key, job) => this.jobs.add(key, job),
    });
    this.digest = new Digest(this, options.digestQuietMs ?? (options.watch === false ? 0 : 60_000));
    this.sight = new FolderSight({
      folder: this.folder,
      ledger,
      settling: this.settling,
      heads: this.decider.heads,
      setState: (relative, change, message) => this.setState(relative, change, message),
      emit: (event) => this.emit(event),
      wake: () => this.wake(),
      stopped: () => this.halted,
      activity: () => this.digest.activity(),
      forgetPropertyList: () => this.decider.forgetPropertyList(),
      settleIdle: () => this.settleIdle(),
      tick: () => this.tick(),
    });
  }

  static async create(options: SyncOptions): Promise<SyncEngine> {
    const folder = path.resolve(options.folder);
    const ledgerFile = path.resolve(options.ledgerFile);
    if (!path.relative(folder, ledgerFile).startsWith('..')) {
      throw new Error('The ledger must live outside the watched folder: the sync never writes into it.');
    }
    if (!(await stat(folder)).isDirectory()) throw new Error(`${folder} is not a folder.`);
    return new SyncEngine({ ...options, folder, ledgerFile }, await Ledger.open(ledgerFile));
  }

  /**
   * Takes the folder's lock (FolderLocked when another sync holds it), scans the folder, then
   * watches it (unless `watch: false`) and scans it again every rescanMs.
   */
  async start(): Promise<void> {
    const staleMs = this.options.lockStaleMs ?? 2 * 60_000;
    this.lock = await FolderLock.acquire(this.folder, { runBy: this.options.runBy ?? 'command line', fallbackFile: `${this.options.ledgerFile}.lock`, staleMs });
    this.lock.keepFresh(Math.max(50, Math.round(staleMs / 4)), () => {
      if (!this.halted) {
        this.halt('Another sync took over this folder while this one was away (asleep or cut off): this one has stopped, so that only one publishes.');
      }
    });
    await this.scan();
    this.timers.push(setInterval(() => void this.tick(), this.tickMs));
    this.timers.push(setInterval(() => void this.scan(), this.rescanMs));
    if (this.options.watch === false) return;
    await this.sight.watch({ ...this.options, stabilityMs: this.stabilityMs });
  }

  /** Full scans completed since start. */
  get scanCount(): number {
    return this.sight.scanCount;
  }

  /**
   * Stops at once, as a crash would: requests on their way are not waited for and their
   * answers are not written down, so the next start must find out from the server.
   */
  async stop(): Promise<void> {
    this.halted = true;
    // clearInterval clears timeouts too.
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.lock?.stopRefreshing();
    await this.sight.stopWatching();
    // Requests already sent reach the server; their answers are dropped, as after a crash.
    await this.jobs.settled();
    await this.ledger.save();
    await this.lock?.release();
    this.lock = null;
    await this.ownReaders?.close();
    this.settleIdle();
  }

  /** Stops on its own, for a reason said once: a refused sign-in, the lock taken over. */
  private halt(reason: string): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.emit({ path: '.', state: 'stopped', message: reason });
    void this.stop();
  }

  /** Why the sync stopped on its own, or null. */
  get stoppedBecause(): string | null {
    return this.stopReason;
  }

  /** Waits until nothing is settling, queued, running or due for another attempt. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** A one-off run: scan, publish what settles, wait for the uploads; true when nothing needs a person. */
  async runOnce(): Promise<boolean> {
    await this.start();
    await this.idle();
    await this.stop();
    return this.succeeded();
  }

  /**
   * Nothing needs a person: no file or manifest row needing attention or given up, the portal
   * reached and the sign-in accepted, no digest owed. Files still being written and files
   * skipped by rule do not fail a run.
   */
  succeeded(): boolean {
    const { counts } = this.status();
    return counts['needs-attention'] === 0 && counts.failed === 0 && !this.gaveUpReaching() && !this.digestOwed() && this.stopReason === null;
  }

  status(): SyncStatus {
    return statusOf(this.ledger, {
      settling: this.settling.candidates.entries(),
      since: this.reportSince,
      unreachable: this.reach.error,
      stoppedBecause: this.stopReason,
      emailed: this.digest.told,
    });
  }

  stopped(): boolean {
    return this.halted;
  }

  /** With matchContent: the manifest drafts of the files that need a person, beside the ledger. */
  contentDrafts(): string[] {
    return this.content?.draftFiles() ?? [];
  }

  // ---- Seeing files ----------------------------------------------------------------------------

  /** A full scan: every file is observed, and ledger entries whose file is gone are marked missing. */
  scan(): Promise<void> {
    return this.sight.scan();
  }

  markMissing(relative: string): void {
    this.sight.markMissing(relative);
  }

  // ---- Deciding --------------------------------------------------------------------------------

  wake(): void {
    this.wakeRequested = true;
  }

  /** Plans the settled files and sends what must be sent. */
  private async reconcile(): Promise<void> {
    if (await this.decider.reconcile()) this.jobs.pump();
  }

  private async tick(): Promise<void> {
    if (this.halted || this.ticking) return;
    this.ticking = true;
    try {
      const settled = await this.sight.settle();
      const now = Date.now();
      if (this.reach.isAway) {
        // While the portal is away, one probe per backoff step; files wait, unsent.
        if (this.reach.probeDue(now) && !this.gaveUpReaching()) {
          this.wakeRequested = false;
          await this.reconcile();
        }
      } else {
        const retryDue = this.ledger.all().some((e) => e.state === 'failed' && !e.missing && this.decider.mayRetry(e) && (e.nextRetryAt ?? 0) <= now);
        if (settled || retryDue || this.wakeRequested) {
          this.wakeRequested = false;
          await this.reconcile();
        }
      }
      this.considerDigest();
    } catch (error) {
      this.emit({ path: '.', state: 'failed', message: `The sync could not plan the folder: ${messageOf(error)}` });
    } finally {
      this.ticking = false;
      await this.ledger.save().catch((error: unknown) =>
        this.emit({ path: '.', state: 'failed', message: `The ledger could not be written: ${messageOf(error)}` }),
      );
      this.settleIdle();
    }
  }

  // ---- Sending ---------------------------------------------------------------------------------

  setState(relative: string, change: Partial<LedgerEntry>, message: string): void {
    if (this.halted) return;
    const entry = this.ledger.update(relative, change);
    if (entry.state === 'published') this.digest.activity();
    this.emit({ path: relative, state: eventStateOf(entry, this.reportSince), message, documentId: entry.documentId });
  }

  /**
   * A failed attempt (`relative` '.': the sync's own call), recorded by recordFailure: a refused
   * sign-in then stops the sync at once, and the portal out of reach is said once and waited out
   * with growing pauses.
   */
  failed(relative: string, error: unknown, attempts: number): void {
    if (this.halted) return;
    const next = recordFailure(this, relative, error, attempts);
    if (next?.kind === 'stop') this.halt(next.reason);
    else if (next?.kind === 'portal-away') this.portalAway(error);
  }

  private portalAway(error: unknown): void {
    this.reach.lost(error, this.backoff);
    this.decider.forgetPropertyList();
    this.wake();
    this.settleIdle();
  }

  reached(): void {
    if (this.reach.back()) this.wake();
  }

  headOf(relative: string): Uint8Array | undefined {
    return this.decider.heads.get(relative);
  }

  private gaveUpReaching(): boolean {
    return this.reach.gaveUp(this.maxAttempts);
  }

  // ---- The digest ------------------------------------------------------------------------------

  private digestOwed(): boolean {
    return this.digest.pending();
  }

  private considerDigest(): void {
    const publishingJob = (key: string) => key.startsWith('p:') || key.startsWith('m:') || key.startsWith('c:');
    const busy = this.reach.isAway || this.settling.candidates.size > 0 || this.jobs.keys().some(publishingJob);
    if (!this.digest.due(busy)) return;
    this.jobs.add('n:digest', () => this.digest.send());
    this.jobs.pump();
  }

  // ---- Waiting ---------------------------------------------------------------------------------

  private isIdle(): boolean {
    if (this.stopReason || this.gaveUpReaching()) return this.jobs.runningCount === 0;
    if (this.jobs.queuedCount > 0 || this.jobs.runningCount > 0 || this.sight.isScanning || this.wakeRequested) return false;
    // A one-off run waits a while for files still being written, then ends without them.
    const now = Date.now();
    const waitFor = this.options.watch === false ? this.writingPatienceMs : Number.POSITIVE_INFINITY;
    if (this.settling.candidates.entries().some(([, c]) => now - c.firstSeen < waitFor)) return false;
    // A digest still to send keeps a one-off run waiting, unless the portal kept failing it.
    if (this.digest.pending() && !this.digest.gaveUp()) return false;
    // Failures that will be tried again, and files waiting for the portal, keep a one-off run waiting.
    return !this.ledger.all().some((e) => !e.missing && (e.state === 'waiting' || e.state === 'publishing' || (e.state === 'failed' && this.decider.mayRetry(e) && e.nextRetryAt !== null)));
  }

  private settleIdle(): void {
    if (!this.isIdle()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  emit(event: SyncEvent): void {
    this.options.onEvent?.(event);
  }
}
