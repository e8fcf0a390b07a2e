// The watched-folder sync, after the lessons of paperless-ngx's consume folder: events are hints
// and a periodic full scan is the truth; a file is read only once it is finished (stability.ts);
// what was done is written down before and after each request, so that a crash, a restart or a
// lost answer never publishes a file twice. One sync per folder (folder-lock.ts). This file runs
// the steps: scan.ts (seeing files), stability.ts, plan.ts (deciding), property-upload.ts and
// manifest-batch.ts (sending), digest.ts (e-mail), ledger.ts (memory) and report.ts (outcomes).

import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { PlannedManifest } from '@everest/core/domain';
import { defaultBackoff, retryDelayMs, type BackoffOptions } from './backoff';
import type { SyncContext, SyncEvent } from './context';
import { Digest, type EmailTold } from './digest';
import { isRefusal, isSignInRefusal, isUnreachable, messageOf, signInRefusedSentence } from './failures';
import { FolderLock, type SyncRunner } from './folder-lock';
import { Ledger, type LedgerEntry, type LedgerState } from './ledger';
import { batchSignatureOf, ManifestBatches } from './manifest-batch';
import { currentPlan, Heads, recordPlan } from './plan';
import type { Portal } from './portal';
import { PropertyUploads } from './property-upload';
import { countOutcomes, publishedInRun, summarySentence, syncReport, type ReportItem, type SyncOutcome } from './report';
import { isSkippedName, posix, walkFolder } from './scan';
import { Candidates, checkFinished, defaultStabilityMs } from './stability';

export type { SyncEvent } from './context';

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

export class SyncEngine implements SyncContext {
  readonly folder: string;
  readonly portal: Portal;
  readonly notifies: boolean;
  readonly maxAttempts: number;
  readonly backoff: BackoffOptions;
  private readonly stabilityMs: number;
  private readonly tickMs: number;
  private readonly rescanMs: number;
  private readonly concurrency: number;
  private readonly writingPatienceMs: number;
  private readonly incompleteAfterMs: number;
  private readonly rootName: string;
  private readonly reportSince: number;

  private readonly candidates: Candidates;
  private readonly announcedWriting = new Set<string>();
  private readonly heads = new Heads();
  private readonly properties: PropertyUploads;
  private readonly manifests: ManifestBatches;
  private readonly digest: Digest;

  private readonly queue: string[] = [];
  private readonly jobs = new Map<string, () => Promise<void>>();
  private readonly running = new Set<string>();
  private readonly runningJobs = new Set<Promise<void>>();
  private watcher: FSWatcher | null = null;
  private timers: NodeJS.Timeout[] = [];
  private halted = false;
  private ticking = false;
  private scanning: Promise<void> | null = null;
  private scansDone = 0;
  private wakeRequested = false;
  private propertyList: { names: string[]; at: number } | null = null;
  private readonly idleWaiters: (() => void)[] = [];
  private lock: FolderLock | null = null;
  private stopReason: string | null = null;
  /** The portal out of reach: since when, how many tries, the next one, and why. */
  private away: { since: number; failures: number; nextAt: number; error: string } | null = null;

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
    this.concurrency = options.concurrency ?? 2;
    this.writingPatienceMs = options.writingPatienceMs ?? 3 * this.stabilityMs;
    this.incompleteAfterMs = options.incompleteAfterMs ?? 10 * 60_000;
    this.rootName = path.basename(options.folder);
    this.reportSince = options.reportSince ?? Date.now();
    this.candidates = new Candidates(this.stabilityMs, { newFileWaitMs: options.newFileWaitMs });
    this.properties = new PropertyUploads(this);
    this.manifests = new ManifestBatches(this);
    this.digest = new Digest(this, options.digestQuietMs ?? (options.watch === false ? 0 : 60_000));
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
    this.timers.push(setInterval(() => void this.keepLock(), Math.max(50, Math.round(staleMs / 4))));
    await this.scan();
    this.timers.push(setInterval(() => void this.tick(), this.tickMs));
    this.timers.push(setInterval(() => void this.scan(), this.rescanMs));
    if (this.options.watch === false) return;
    this.watcher = watch(this.folder, {
      ignoreInitial: true,
      ignored: (file) => isSkippedName(path.basename(file)),
      usePolling: this.options.poll ?? false,
      interval: this.options.pollIntervalMs ?? 2_000,
      binaryInterval: this.options.pollIntervalMs ?? 2_000,
      // The stability window does this job, for watched and scanned files alike.
      awaitWriteFinish: false,
    });
    const seen = (file: string, stats?: Stats) => void this.observe(posix(path.relative(this.folder, file)), stats);
    this.watcher.on('add', seen).on('change', seen);
    // A new folder may fill between chokidar's first read of it and the start of its own
    // watcher (polling makes that window wide), and those files would wait for the next full
    // scan: it is read again now and once more after a stability window.
    this.watcher.on('addDir', (dir) => {
      const relative = posix(path.relative(this.folder, dir));
      void this.scanFolder(relative);
      const again = setTimeout(() => {
        this.timers = this.timers.filter((t) => t !== again);
        void this.scanFolder(relative);
      }, this.stabilityMs);
      this.timers.push(again);
    });
    this.watcher.on('unlink', (file) => this.markMissing(posix(path.relative(this.folder, file))));
    this.watcher.on('error', (error) => this.emit({ path: '.', state: 'failed', message: `Watching failed: ${messageOf(error)}` }));
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));
    // What changed between the first scan and the watcher being armed (a poller takes its
    // first look only after an interval) has no event: one more scan once it surely is.
    const primed = setTimeout(() => void this.scan(), Math.max(this.stabilityMs, 2 * (this.options.pollIntervalMs ?? 2_000)));
    this.timers.push(primed);
  }

  /** Full scans completed since start. */
  get scanCount(): number {
    return this.scansDone;
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
    await this.watcher?.close();
    this.watcher = null;
    // Requests already sent reach the server; their answers are dropped, as after a crash.
    await Promise.allSettled([...this.runningJobs]);
    await this.ledger.save();
    await this.lock?.release();
    this.lock = null;
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
    const present = this.ledger.all().filter((e) => !e.missing);
    const byState = (state: LedgerState) => present.filter((e) => e.state === state);
    const settling = this.candidates.entries().map(([p, c]) => ({ path: p, reason: c.writing }));
    const report = syncReport(present, { writing: settling, skipped: this.ledger.skipped, since: this.reportSince });
    const counts = countOutcomes(report);
    return {
      unreachable: this.away?.error ?? null,
      stoppedBecause: this.stopReason,
      published: byState('published'),
      waiting: [...byState('waiting'), ...byState('publishing')],
      failed: byState('failed'),
      needsAttention: byState('needs-attention'),
      settling,
      report,
      counts,
      summary: summarySentence(counts),
      emailed: { ...this.digest.told },
    };
  }

  stopped(): boolean {
    return this.halted;
  }

  // ---- The lock --------------------------------------------------------------------------------

  private async keepLock(): Promise<void> {
    if (this.halted || !this.lock) return;
    if (!(await this.lock.refresh()) && !this.halted) {
      this.halt('Another sync took over this folder while this one was away (asleep or cut off): this one has stopped, so that only one publishes.');
    }
  }

  // ---- Seeing files ----------------------------------------------------------------------------

  /** A full scan: every file is observed, and ledger entries whose file is gone are marked missing. */
  scan(): Promise<void> {
    this.scanning ??= (async () => {
      try {
        const { files, skipped } = await walkFolder(this.folder);
        this.ledger.skipped = skipped.sort();
        const present = new Set(files);
        for (const entry of this.ledger.all()) if (!entry.missing && !present.has(entry.path)) this.markMissing(entry.path);
        // A new scan also asks again for the property list: a property created on the portal
        // since turns its waiting folder into documents.
        this.propertyList = null;
        await Promise.all(files.map((file) => this.observe(file, undefined, true)));
        this.scansDone += 1;
      } finally {
        this.scanning = null;
      }
      await this.tick();
    })();
    return this.scanning;
  }

  private async scanFolder(relative: string): Promise<void> {
    if (this.halted || relative === '' || relative.startsWith('..')) return;
    for (const file of (await walkFolder(this.folder, relative)).files) await this.observe(file);
  }

  private async observe(relative: string, stats?: Stats, rescan = false): Promise<void> {
    if (this.halted || relative.split('/').some(isSkippedName)) return;
    let current = stats;
    if (!current) {
      try {
        current = await stat(path.join(this.folder, relative));
      } catch {
        return;
      }
    }
    if (!current.isFile()) return;
    const { size, mtimeMs } = current;
    const entry = this.ledger.get(relative);
    if (entry && entry.size === size && entry.mtimeMs === mtimeMs && entry.sha256 !== null) {
      // Known content: nothing to read again. A missing file that came back is present again.
      if (entry.missing) this.ledger.update(relative, { missing: false });
      if (entry.state !== 'published' && entry.state !== 'needs-attention') this.wake();
      else if (rescan) this.wake();
      return;
    }
    if (this.candidates.observe(relative, size, mtimeMs)) {
      this.digest.activity();
      this.announceWriting(relative);
    }
  }

  /** Says once per wait that a file is still being written, when a check has found it so. */
  private announceWriting(relative: string): void {
    const reason = this.candidates.get(relative)?.writing;
    if (!reason || this.announcedWriting.has(relative)) return;
    this.announcedWriting.add(relative);
    this.emit({ path: relative, state: 'still-being-written', message: reason });
  }

  markMissing(relative: string): void {
    this.candidates.delete(relative);
    this.announcedWriting.delete(relative);
    const entry = this.ledger.get(relative);
    if (!entry || entry.missing) return;
    this.ledger.update(relative, { missing: true });
    // Only a published file has a document the portal keeps (issue 34).
    const message =
      entry.state === 'published' && entry.documentId !== null && !entry.filedElsewhere
        ? 'Deleted locally: the portal keeps its document.'
        : entry.state === 'published'
          ? 'Deleted locally: the portal keeps what it had.'
          : 'Deleted locally before it was published: nothing was sent.';
    this.emit({ path: relative, state: 'missing', message });
    void this.ledger.save();
    this.settleIdle();
  }

  /** Reads the files whose size and mtime stood still for the window: finished, or still being written. */
  private async settleCandidates(): Promise<boolean> {
    let changed = false;
    for (const [relative, candidate] of this.candidates.due()) {
      const absolute = path.join(this.folder, relative);
      let check;
      try {
        check = await checkFinished(absolute, path.posix.basename(relative).normalize('NFC'), candidate, this.incompleteAfterMs);
      } catch {
        this.candidates.delete(relative);
        continue;
      }
      if (this.candidates.get(relative) !== candidate) continue;
      if (check.kind === 'gone') {
        this.candidates.delete(relative);
        continue;
      }
      if (check.kind === 'writing') {
        this.candidates.again(relative, check.size, check.mtimeMs, check.reason);
        this.announceWriting(relative);
        continue;
      }
      this.candidates.settled(relative);
      this.announcedWriting.delete(relative);
      this.heads.set(relative, check.head);
      this.recordSettled(relative, candidate.size, candidate.mtimeMs, check.sha256);
      if (check.kind === 'incomplete') {
        this.setState(relative, { kind: 'unmatched', state: 'needs-attention', lastError: check.reason, incomplete: check.reason }, check.reason);
      }
      changed = true;
    }
    return changed;
  }

  private recordSettled(relative: string, size: number, mtimeMs: number, sha256: string): void {
    const entry = this.ledger.get(relative);
    if (entry) {
      const sameContent = entry.sha256 === sha256 && !entry.incomplete;
      this.ledger.update(relative, {
        size,
        mtimeMs,
        sha256,
        missing: false,
        // A touched file keeps its state; new content is looked at afresh.
        ...(sameContent ? {} : { state: 'waiting' as const, attempts: 0, nextRetryAt: null, lastError: null, uploadKey: null, incomplete: null }),
      });
      return;
    }
    this.ledger.put({
      path: relative,
      size,
      mtimeMs,
      sha256,
      kind: 'unmatched',
      state: 'waiting',
      documentId: null,
      publishedSha256: null,
      attempts: 0,
      nextRetryAt: null,
      lastError: null,
      missing: false,
    });
  }

  // ---- Deciding --------------------------------------------------------------------------------

  wake(): void {
    this.wakeRequested = true;
  }

  private async tick(): Promise<void> {
    if (this.halted || this.ticking) return;
    this.ticking = true;
    try {
      const settled = await this.settleCandidates();
      const now = Date.now();
      if (this.away) {
        // While the portal is away, one probe per backoff step; files wait, unsent.
        if (now >= this.away.nextAt && !this.gaveUpReaching()) {
          this.wakeRequested = false;
          await this.reconcile();
        }
      } else {
        const retryDue = this.ledger.all().some((e) => e.state === 'failed' && !e.missing && this.mayRetry(e) && (e.nextRetryAt ?? 0) <= now);
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

  private mayRetry(entry: LedgerEntry): boolean {
    return entry.attempts < this.maxAttempts;
  }

  /** Plans the settled files and queues what must be sent. */
  private async reconcile(): Promise<void> {
    let names: string[];
    try {
      if (!this.propertyList || Date.now() - this.propertyList.at > this.rescanMs) {
        this.propertyList = { names: await this.portal.propertyNames(), at: Date.now() };
      }
      names = this.propertyList.names;
    } catch (error) {
      this.failed('.', error, 0);
      return;
    }
    this.reached();
    await this.heads.fill(this.folder, this.ledger.all());
    const plan = recordPlan(this, currentPlan(this.ledger, this.heads, this.rootName, names));
    for (const document of plan.propertyDocuments) {
      if (this.wantsWork(this.ledger.get(document.entry.path)!)) {
        this.enqueue(`p:${document.entry.path}`, () => this.properties.publish(document, (e) => this.wantsWork(e)));
      }
    }
    for (const manifest of plan.manifests) this.considerManifest(manifest);
    this.pump();
  }

  private wantsWork(entry: LedgerEntry): boolean {
    // A property document published before destinations were recorded is checked once (adoptDestination).
    if (entry.state === 'published' && entry.kind === 'property' && entry.documentId !== null && !entry.destination) return true;
    if (entry.state === 'published' && entry.kind === 'property' && this.properties.recheck(entry)) return true;
    if (entry.state === 'published' && entry.publishedSha256 === entry.sha256) return false;
    if (entry.state === 'needs-attention') return false;
    if (entry.state === 'failed' && (!this.mayRetry(entry) || (entry.nextRetryAt ?? 0) > Date.now())) return false;
    return true;
  }

  private considerManifest(manifest: PlannedManifest): void {
    const folderPrefix = `${manifest.folder}/`;
    // A batch waits for its whole folder to settle: a manifest copied before its files must
    // not publish half of them.
    if (this.candidates.entries().some(([p]) => p.startsWith(folderPrefix))) return;
    const signature = batchSignatureOf(manifest);
    const current = this.ledger.get(manifest.entry.path)!;
    if (current.kind === 'manifest' && current.batchSignature === signature && current.state === 'published') return;
    if (current.kind !== 'manifest' || (current.batchSignature !== signature && current.state !== 'publishing' && current.state !== 'failed')) {
      // A new or changed batch: its manifest and files are looked at afresh.
      this.ledger.update(current.path, { kind: 'manifest', batchSignature: null, state: 'waiting', attempts: 0, nextRetryAt: null, lastError: null, rowProblems: null });
      for (const file of manifest.files) {
        const entry = this.ledger.get(file.entry.path)!;
        if (entry.state !== 'published' || entry.publishedSha256 !== entry.sha256) {
          this.ledger.update(entry.path, { kind: 'personal', state: 'waiting', lastError: null });
        }
      }
    }
    if (!this.wantsWork(this.ledger.get(current.path)!)) return;
    this.enqueue(`m:${manifest.folder}`, () => this.manifests.publish(manifest, signature, (e) => this.wantsWork(e)));
  }

  // ---- Sending ---------------------------------------------------------------------------------

  private enqueue(key: string, job: () => Promise<void>): void {
    if (this.jobs.has(key) || this.running.has(key)) return;
    this.queue.push(key);
    this.jobs.set(key, job);
  }

  private pump(): void {
    // While the portal is away nothing is sent: the probe in tick says when it is back.
    while (!this.halted && !this.away && this.running.size < this.concurrency && this.queue.length > 0) {
      const key = this.queue.shift()!;
      const job = this.jobs.get(key)!;
      this.jobs.delete(key);
      this.running.add(key);
      const run = job()
        .catch((error: unknown) => this.emit({ path: key.slice(2), state: 'failed', message: `Unexpected: ${messageOf(error)}` }))
        .finally(() => {
          this.running.delete(key);
          if (this.halted) return;
          void this.ledger.save();
          this.considerDigest();
          this.pump();
          this.settleIdle();
        });
      this.runningJobs.add(run);
      void run.finally(() => this.runningJobs.delete(run));
    }
  }

  /**
   * The state a change shows as: a published file the portal already had (or that an earlier
   * run published), or one filed elsewhere, says so.
   */
  private eventStateOf(entry: LedgerEntry): SyncEvent['state'] {
    if (entry.state === 'published' && entry.filedElsewhere) return 'needs-attention';
    if (entry.state === 'published' && entry.kind !== 'manifest' && !publishedInRun(entry, this.reportSince)) return 'already-published';
    if (entry.state === 'needs-attention' && entry.twinOf) return 'skipped';
    return entry.state;
  }

  setState(relative: string, change: Partial<LedgerEntry>, message: string): void {
    if (this.halted) return;
    const entry = this.ledger.update(relative, change);
    if (entry.state === 'published') this.digest.activity();
    this.emit({ path: relative, state: this.eventStateOf(entry), message, documentId: entry.documentId });
  }

  /**
   * A failed attempt (`relative` '.': the sync's own call). A refused sign-in stops the sync at
   * once; the portal out of reach is said once and waited out with growing pauses, the file
   * waiting unsent; a refusal of this file waits for a person; anything else is retried with
   * the file's own doubling backoff, said when it first fails and when it is given up.
   */
  failed(relative: string, error: unknown, attempts: number): void {
    if (this.halted) return;
    const entry = relative === '.' ? undefined : this.ledger.get(relative);
    if (isSignInRefusal(error)) {
      if (entry) this.ledger.update(relative, { state: 'waiting' });
      this.halt(signInRefusedSentence(error));
      return;
    }
    if (isUnreachable(error)) {
      if (entry) this.ledger.update(relative, { state: 'waiting', lastError: `Waiting for the portal: ${messageOf(error)}`, nextRetryAt: null });
      this.portalAway(error);
      return;
    }
    if (!entry) {
      this.emit({ path: relative, state: 'failed', message: messageOf(error) });
      return;
    }
    if (isRefusal(error)) {
      this.setState(relative, { state: 'needs-attention', lastError: error.message, nextRetryAt: null }, `Refused by the portal: ${error.message}`);
      return;
    }
    const message = messageOf(error);
    const delay = retryDelayMs(attempts, this.backoff);
    const gaveUp = attempts >= this.maxAttempts;
    const again = entry.lastError === message && attempts > 1;
    const change = { state: 'failed' as const, lastError: message, nextRetryAt: gaveUp ? null : Date.now() + delay };
    if (again && !gaveUp) {
      // The same failure again: written down, not said again.
      this.ledger.update(relative, change);
      return;
    }
    this.setState(
      relative,
      change,
      gaveUp ? `Gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${message}` : `Failed (attempt ${attempts}): ${message} Retrying with growing pauses.`,
    );
  }

  private portalAway(error: unknown): void {
    const now = Date.now();
    if (!this.away) {
      this.away = { since: now, failures: 0, nextAt: 0, error: messageOf(error) };
      this.emit({
        path: '.',
        state: 'portal-away',
        message: `The portal cannot be reached: ${messageOf(error)} Files wait; the sync tries again with growing pauses.`,
      });
    }
    // Requests failing together count as one try; the next one waits its turn.
    if (now >= this.away.nextAt) {
      this.away.failures += 1;
      this.away.nextAt = now + retryDelayMs(this.away.failures, this.backoff);
    }
    this.away.error = messageOf(error);
    this.propertyList = null;
    this.wake();
    this.settleIdle();
  }

  reached(): void {
    if (!this.away) return;
    const seconds = Math.round((Date.now() - this.away.since) / 1000);
    this.away = null;
    this.emit({ path: '.', state: 'portal-back', message: `The portal is reachable again (after ${seconds} s): files are being sent.` });
    this.wake();
  }

  headOf(relative: string): Uint8Array | undefined {
    return this.heads.get(relative);
  }

  private gaveUpReaching(): boolean {
    return this.away !== null && this.away.failures >= this.maxAttempts;
  }

  // ---- The digest ------------------------------------------------------------------------------

  private digestOwed(): boolean {
    return this.digest.pending();
  }

  private considerDigest(): void {
    const publishingJob = (key: string) => key.startsWith('p:') || key.startsWith('m:');
    const busy = this.away !== null || this.candidates.size > 0 || this.queue.some(publishingJob) || [...this.running].some(publishingJob);
    if (!this.digest.due(busy)) return;
    this.enqueue('n:digest', () => this.digest.send());
    this.pump();
  }

  // ---- Waiting ---------------------------------------------------------------------------------

  private isIdle(): boolean {
    if (this.stopReason || this.gaveUpReaching()) return this.running.size === 0;
    if (this.queue.length > 0 || this.running.size > 0 || this.scanning || this.wakeRequested) return false;
    // A one-off run waits a while for files still being written, then ends without them.
    const now = Date.now();
    const waitFor = this.options.watch === false ? this.writingPatienceMs : Number.POSITIVE_INFINITY;
    if (this.candidates.entries().some(([, c]) => now - c.firstSeen < waitFor)) return false;
    // A digest still to send keeps a one-off run waiting, unless the portal kept failing it.
    if (this.digest.pending() && !this.digest.gaveUp()) return false;
    // Failures that will be tried again, and files waiting for the portal, keep a one-off run waiting.
    return !this.ledger.all().some((e) => !e.missing && (e.state === 'waiting' || e.state === 'publishing' || (e.state === 'failed' && this.mayRetry(e) && e.nextRetryAt !== null)));
  }

  private settleIdle(): void {
    if (!this.isIdle()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  emit(event: SyncEvent): void {
    this.options.onEvent?.(event);
  }
}
