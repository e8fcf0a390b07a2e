// The watched-folder sync, after the lessons of paperless-ngx's consume folder: events are hints
// and a periodic full scan is the truth; a file is read only once its size and mtime have stood
// still, and checked again after hashing; what was done is written down before and after each
// request, so that a crash, a restart or a lost answer never publishes a file twice. The source
// folder is only ever read.

import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { ApiError } from '@everest/core/client';
import type { PropertyDocument } from '@everest/core/contract';
import {
  decodeCsvBytes,
  destinationKey,
  documentRefusal,
  isIgnoredName,
  manifestEmails,
  planBulkManifest,
  planFolder,
  publicationKey,
  publishingMessages,
  type Destination,
  type FolderPlan,
  type PlannedManifest,
  type PlannedPropertyDocument,
} from '@everest/core/domain';
import { defaultBackoff, retryDelayMs, type BackoffOptions } from './backoff';
import { Ledger, type LedgerEntry, type LedgerState, type PendingBatch, type PublishedPersonalDocument } from './ledger';
import type { Portal } from './portal';

export interface SyncOptions {
  /** The watched folder (absolute). Never written to. */
  folder: string;
  /** The ledger's JSON file: outside the watched folder. */
  ledgerFile: string;
  portal: Portal;
  /** How long size and mtime must stand still before a file is read (default 3 s). */
  stabilityMs?: number;
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
   * Ask the server to e-mail investors about what is published (default off): one digest per
   * investor per settled batch, for property documents (notify-documents) as for a manifest.
   */
  emailNotification?: boolean;
  /** Requests at once (default 2). */
  concurrency?: number;
  /** Attempts before a failing file is left in the failed list (default: retry for ever). */
  maxAttempts?: number;
  backoff?: BackoffOptions;
  /** One event per file and state change. */
  onEvent?: (event: SyncEvent) => void;
}

export interface SyncEvent {
  path: string;
  state: LedgerState | 'missing';
  message: string;
  documentId?: number | null;
}

export interface SyncStatus {
  /** Why the server could not be reached at the last try, or null. */
  unreachable: string | null;
  published: LedgerEntry[];
  waiting: LedgerEntry[];
  failed: LedgerEntry[];
  needsAttention: LedgerEntry[];
  /** Files still being written (size or mtime moved within the stability window). */
  settling: string[];
}

interface Candidate {
  size: number;
  mtimeMs: number;
  since: number;
}

/** Statuses that mean the server looked at the request and said no: retrying will not help. */
function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && ![401, 408, 425, 429].includes(error.status);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A manifest cell, always quoted, so that commas, quotes and line breaks survive. Not core's
 * csvCell: this manifest goes to the server, not to a spreadsheet, and must carry a title that
 * starts with '=' exactly as the administrator wrote it.
 */
function manifestCell(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

const posix = (relative: string) => relative.split(path.sep).join('/');

/**
 * The Idempotency-Key of one publication of a property document: its destination, content and
 * period, and a nonce of its own. Kept in the ledger until answered, so that a retry is the same
 * request; a new publication of the same file (a lost ledger, a document deleted in the panel
 * and published again) gets a new key, and the server's content rule answers it instead.
 */
function uploadKeyOf(publication: string, document: PlannedPropertyDocument): string {
  return createHash('sha256').update(['upload-document', publication, document.year, document.quarter, randomUUID()].join('\n')).digest('hex');
}

/** Where a property document of the folder goes: its property, or General. */
const destinationOf = (document: PlannedPropertyDocument): Destination => ({ kind: 'property', property: document.property });

/** A personal document this sync published whose file changed in place. */
interface PersonalReplacement {
  filePath: string;
  /** The name sent (NFC). */
  name: string;
  documentId: number;
  email: string;
  title: string;
}

/** Attempts of a failing file or batch that the digest waits for before going without it. */
const digestPatience = 3;

/** A personal document by investor and title, as the manifest names it (both compared in lower case). */
const personalKey = (email: string, title: string) => `${email.toLowerCase()}\u0000${title.toLowerCase()}`;

export class SyncEngine {
  private readonly stabilityMs: number;
  private readonly tickMs: number;
  private readonly rescanMs: number;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly backoff: BackoffOptions;
  private readonly rootName: string;

  private readonly candidates = new Map<string, Candidate>();
  private readonly queued = new Set<string>();
  private readonly queue: string[] = [];
  private readonly running = new Set<string>();
  /**
   * Publications (core's publicationKey: content and destination) being sent right now: a copy
   * of the same file for the same property waits for the first to finish; the same content for
   * another property is another publication and goes at once.
   */
  private readonly sending = new Set<string>();
  private serverDocuments: { documents: PropertyDocument[]; at: number } | null = null;
  private watcher: FSWatcher | null = null;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private ticking = false;
  private scanning: Promise<void> | null = null;
  private properties: { names: string[]; at: number } | null = null;
  private readonly idleWaiters: (() => void)[] = [];

  private constructor(
    private readonly options: SyncOptions,
    readonly ledger: Ledger,
  ) {
    this.stabilityMs = options.stabilityMs ?? 3_000;
    this.tickMs = options.tickMs ?? Math.min(1_000, Math.max(20, Math.round(this.stabilityMs / 4)));
    this.rescanMs = options.rescanMs ?? 5 * 60_000;
    this.concurrency = options.concurrency ?? 2;
    this.maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
    this.backoff = options.backoff ?? defaultBackoff;
    this.rootName = path.basename(options.folder);
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

  /** Scans the folder, then watches it (unless `watch: false`) and scans it again every rescanMs. */
  async start(): Promise<void> {
    await this.scan();
    this.timers.push(setInterval(() => void this.tick(), this.tickMs));
    this.timers.push(setInterval(() => void this.scan(), this.rescanMs));
    if (this.options.watch === false) return;
    this.watcher = watch(this.options.folder, {
      ignoreInitial: true,
      ignored: (file) => isIgnoredName(path.basename(file)),
      usePolling: this.options.poll ?? false,
      interval: this.options.pollIntervalMs ?? 2_000,
      binaryInterval: this.options.pollIntervalMs ?? 2_000,
      // The stability window below does this job, for watched and scanned files alike.
      awaitWriteFinish: false,
    });
    const seen = (file: string, stats?: Stats) => void this.observe(posix(path.relative(this.options.folder, file)), stats);
    this.watcher.on('add', seen).on('change', seen);
    // A new folder may fill between chokidar's first read of it and the start of its own
    // watcher (polling makes that window wide), and those files would wait for the next full
    // scan: it is read again now and once more after a stability window.
    this.watcher.on('addDir', (dir) => {
      const relative = posix(path.relative(this.options.folder, dir));
      void this.scanFolder(relative);
      const again = setTimeout(() => {
        this.timers = this.timers.filter((t) => t !== again);
        void this.scanFolder(relative);
      }, this.stabilityMs);
      this.timers.push(again);
    });
    this.watcher.on('unlink', (file) => this.markMissing(posix(path.relative(this.options.folder, file))));
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

  private scansDone = 0;

  /**
   * Stops at once, as a crash would: requests on their way are not waited for and their
   * answers are not written down, so the next start must find out from the server.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    // clearInterval clears timeouts too.
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.watcher?.close();
    this.watcher = null;
    // Requests already sent reach the server; their answers are dropped, as after a crash.
    await Promise.allSettled([...this.runningJobs]);
    await this.ledger.save();
  }

  /** Waits until nothing is settling, queued, running or due for another attempt. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** A one-off run: scan, publish what settles, wait for the uploads; true when nothing failed. */
  async runOnce(): Promise<boolean> {
    await this.start();
    await this.idle();
    await this.stop();
    return this.succeeded();
  }

  /**
   * Nothing failed: no file left failing, no file or batch refused by the portal, and the server
   * was reached. Files the layout does not match are listed but do not fail a run.
   */
  succeeded(): boolean {
    const status = this.status();
    return (
      status.failed.length === 0 &&
      !this.gaveUpReaching() &&
      !this.digestsPending() &&
      status.needsAttention.every((e) => e.kind === 'unmatched')
    );
  }

  status(): SyncStatus {
    const present = this.ledger.all().filter((e) => !e.missing);
    const byState = (state: LedgerState) => present.filter((e) => e.state === state);
    return {
      unreachable: this.lastReachError,
      published: byState('published'),
      waiting: [...byState('waiting'), ...byState('publishing')],
      failed: byState('failed'),
      needsAttention: byState('needs-attention'),
      settling: [...this.candidates.keys()],
    };
  }

  // ---- Seeing files ----------------------------------------------------------------------------

  /** Every file below the folder, skipping ignored names and the folders they name. */
  private async walk(relative = ''): Promise<string[]> {
    const found: string[] = [];
    let items;
    try {
      items = await readdir(path.join(this.options.folder, relative), { withFileTypes: true });
    } catch {
      return found;
    }
    for (const item of items) {
      if (isIgnoredName(item.name)) continue;
      const child = relative ? `${relative}/${item.name}` : item.name;
      if (item.isDirectory()) found.push(...(await this.walk(child)));
      else if (item.isFile()) found.push(child);
    }
    return found;
  }

  /** A full scan: every file is observed, and ledger entries whose file is gone are marked missing. */
  scan(): Promise<void> {
    this.scanning ??= (async () => {
      try {
        const files = await this.walk();
        const present = new Set(files);
        for (const entry of this.ledger.all()) if (!entry.missing && !present.has(entry.path)) this.markMissing(entry.path);
        // A new scan also asks again for the property list: a property created on the portal
        // since turns its waiting folder into documents.
        this.properties = null;
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
    if (this.stopped || relative === '' || relative.startsWith('..')) return;
    for (const file of await this.walk(relative)) await this.observe(file);
  }

  private async observe(relative: string, stats?: Stats, rescan = false): Promise<void> {
    if (this.stopped || relative.split('/').some(isIgnoredName)) return;
    let current = stats;
    if (!current) {
      try {
        current = await stat(path.join(this.options.folder, relative));
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
    const candidate = this.candidates.get(relative);
    if (!candidate || candidate.size !== size || candidate.mtimeMs !== mtimeMs) {
      this.candidates.set(relative, { size, mtimeMs, since: Date.now() });
    }
  }

  private markMissing(relative: string): void {
    this.candidates.delete(relative);
    const entry = this.ledger.get(relative);
    if (!entry || entry.missing) return;
    this.ledger.update(relative, { missing: true });
    this.emit({ path: relative, state: 'missing', message: 'Deleted locally: the portal keeps its document.' });
    void this.ledger.save();
    this.settleIdle();
  }

  /** Reads the files whose size and mtime stood still for stabilityMs, hashing and checking them again. */
  private async settleCandidates(): Promise<boolean> {
    const now = Date.now();
    const due = [...this.candidates].filter(([, c]) => now - c.since >= this.stabilityMs);
    let changed = false;
    for (const [relative, candidate] of due) {
      const absolute = path.join(this.options.folder, relative);
      let sha256: string;
      let after: Stats;
      try {
        sha256 = await sha256Of(absolute);
        after = await stat(absolute);
      } catch {
        this.candidates.delete(relative);
        continue;
      }
      if (this.candidates.get(relative) !== candidate) continue;
      if (after.size !== candidate.size || after.mtimeMs !== candidate.mtimeMs) {
        // Written to while it was read: start the wait again.
        this.candidates.set(relative, { size: after.size, mtimeMs: after.mtimeMs, since: Date.now() });
        continue;
      }
      this.candidates.delete(relative);
      this.recordSettled(relative, candidate.size, candidate.mtimeMs, sha256);
      changed = true;
    }
    return changed;
  }

  private recordSettled(relative: string, size: number, mtimeMs: number, sha256: string): void {
    const entry = this.ledger.get(relative);
    if (entry) {
      const sameContent = entry.sha256 === sha256;
      this.ledger.update(relative, {
        size,
        mtimeMs,
        sha256,
        missing: false,
        // A touched file keeps its state; new content is looked at afresh.
        ...(sameContent ? {} : { state: 'waiting' as const, attempts: 0, nextRetryAt: null, lastError: null, uploadKey: null }),
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

  private wakeRequested = false;

  private wake(): void {
    this.wakeRequested = true;
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      const settled = await this.settleCandidates();
      const retryDue = this.ledger.all().some((e) => e.state === 'failed' && !e.missing && this.mayRetry(e) && (e.nextRetryAt ?? 0) <= Date.now());
      if (settled || retryDue || (this.wakeRequested && Date.now() >= this.nextReachAt)) {
        this.wakeRequested = false;
        await this.reconcile();
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

  private async propertyNames(): Promise<string[]> {
    if (!this.properties || Date.now() - this.properties.at > this.rescanMs) {
      this.properties = { names: await this.options.portal.propertyNames(), at: Date.now() };
    }
    return this.properties.names;
  }

  private currentPlan(names: string[]): FolderPlan {
    const entries = this.ledger
      .all()
      .filter((e) => !e.missing && e.sha256 !== null)
      .map((e) => ({ path: e.path, size: e.size, sha256: e.sha256 ?? undefined }));
    return planFolder({ rootName: this.rootName, entries, propertyNames: names });
  }

  /** Plans the settled files and queues what must be sent. */
  private async reconcile(): Promise<void> {
    let names: string[];
    try {
      names = await this.propertyNames();
    } catch (error) {
      // The server is out of reach: nothing can be planned now; tried again after a backoff.
      this.reachFailures += 1;
      this.nextReachAt = Date.now() + retryDelayMs(this.reachFailures, this.backoff);
      this.lastReachError = messageOf(error);
      this.wake();
      this.emit({ path: '.', state: 'failed', message: `The portal could not be reached (attempt ${this.reachFailures}): ${this.lastReachError}` });
      return;
    }
    this.lastReachError = null;
    this.reachFailures = 0;
    this.nextReachAt = 0;
    const plan = this.currentPlan(names);

    for (const { entry, reason } of plan.unmatched) {
      const current = this.ledger.get(entry.path)!;
      if (current.kind === 'unmatched' && current.state === 'needs-attention' && current.lastError === reason) continue;
      this.setState(entry.path, { kind: 'unmatched', state: 'needs-attention', lastError: reason }, reason);
    }
    for (const document of plan.propertyDocuments) {
      const current = this.ledger.get(document.entry.path)!;
      if (current.kind !== 'property') this.ledger.update(current.path, { kind: 'property', state: current.state === 'needs-attention' ? 'waiting' : current.state, lastError: null });
      if (this.wantsWork(this.ledger.get(current.path)!)) this.enqueue(`p:${current.path}`, () => this.publishProperty(document));
    }
    // Copies of a property document (same content, same property): the original is published,
    // the copy is said so and waits; it is looked at again when it changes (issue 32).
    for (const { entry, of } of plan.duplicates) {
      const current = this.ledger.get(entry.path)!;
      if (current.state === 'published') continue;
      const reason = publishingMessages.twinForProperty(of);
      if (current.kind === 'unmatched' && current.state === 'needs-attention' && current.lastError === reason) continue;
      this.setState(entry.path, { kind: 'unmatched', state: 'needs-attention', lastError: reason }, reason);
    }
    for (const manifest of plan.manifests) this.considerManifest(manifest);
    this.pump();
  }

  private lastReachError: string | null = null;
  private reachFailures = 0;
  private nextReachAt = 0;

  private gaveUpReaching(): boolean {
    return this.reachFailures >= this.maxAttempts;
  }

  private wantsWork(entry: LedgerEntry): boolean {
    // A property document published before destinations were recorded is checked once (adoptDestination).
    if (entry.state === 'published' && entry.kind === 'property' && entry.documentId !== null && !entry.destination) return true;
    if (entry.state === 'published' && entry.publishedSha256 === entry.sha256) return false;
    if (entry.state === 'needs-attention') return false;
    if (entry.state === 'failed' && (!this.mayRetry(entry) || (entry.nextRetryAt ?? 0) > Date.now())) return false;
    return true;
  }

  private considerManifest(manifest: PlannedManifest): void {
    const folderPrefix = `${manifest.folder}/`;
    // A batch waits for its whole folder to settle: a manifest copied before its files must
    // not publish half of them.
    if ([...this.candidates.keys()].some((p) => p.startsWith(folderPrefix))) return;
    const signature = createHash('sha256')
      .update([manifest.entry.sha256, ...manifest.files.map((f) => `${f.name}\u0000${f.entry.sha256}`).sort()].join('\n'))
      .digest('hex');
    const current = this.ledger.get(manifest.entry.path)!;
    if (current.kind === 'manifest' && current.batchSignature === signature && current.state === 'published') return;
    if (current.kind !== 'manifest' || (current.batchSignature !== signature && current.state !== 'publishing' && current.state !== 'failed')) {
      // A new or changed batch: its manifest and files are looked at afresh.
      this.ledger.update(current.path, { kind: 'manifest', batchSignature: null, state: 'waiting', attempts: 0, nextRetryAt: null, lastError: null });
      for (const file of manifest.files) {
        const entry = this.ledger.get(file.entry.path)!;
        if (entry.state !== 'published' || entry.publishedSha256 !== entry.sha256) {
          this.ledger.update(entry.path, { kind: 'personal', state: 'waiting', lastError: null });
        }
      }
    }
    if (!this.wantsWork(this.ledger.get(current.path)!)) return;
    this.enqueue(`m:${manifest.folder}`, () => this.publishManifest(manifest, signature));
  }

  // ---- Sending ---------------------------------------------------------------------------------

  private enqueue(key: string, job: () => Promise<void>): void {
    if (this.queued.has(key) || this.running.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.jobs.set(key, job);
  }

  private readonly jobs = new Map<string, () => Promise<void>>();
  private readonly runningJobs = new Set<Promise<void>>();

  private pump(): void {
    while (!this.stopped && this.running.size < this.concurrency && this.queue.length > 0) {
      const key = this.queue.shift()!;
      this.queued.delete(key);
      const job = this.jobs.get(key)!;
      this.jobs.delete(key);
      this.running.add(key);
      const run = job()
        .catch((error: unknown) => this.emit({ path: key.slice(2), state: 'failed', message: `Unexpected: ${messageOf(error)}` }))
        .finally(() => {
          this.running.delete(key);
          if (this.stopped) return;
          void this.ledger.save();
          this.considerDigest();
          this.pump();
          this.settleIdle();
        });
      this.runningJobs.add(run);
      void run.finally(() => this.runningJobs.delete(run));
    }
  }

  private setState(relative: string, change: Partial<LedgerEntry>, message: string): void {
    if (this.stopped) return;
    const entry = this.ledger.update(relative, change);
    this.emit({ path: relative, state: entry.state, message, documentId: entry.documentId });
  }

  /** A failed attempt: retried later when it may pass, left for a person when the server refused it. */
  private failed(relative: string, error: unknown, attempts: number): void {
    if (this.stopped) return;
    if (isRefusal(error)) {
      this.setState(relative, { state: 'needs-attention', lastError: error.message, nextRetryAt: null }, `Refused by the portal: ${error.message}`);
      return;
    }
    const delay = retryDelayMs(attempts, this.backoff);
    const gaveUp = attempts >= this.maxAttempts;
    this.setState(
      relative,
      { state: 'failed', lastError: messageOf(error), nextRetryAt: gaveUp ? null : Date.now() + delay },
      gaveUp
        ? `Failed ${attempts} times, last: ${messageOf(error)}`
        : `Failed (attempt ${attempts}), retrying in ${Math.round(delay / 1000)} s: ${messageOf(error)}`,
    );
  }

  /**
   * Publishes a property document. The upload carries an Idempotency-Key kept in the ledger
   * until it is answered: a retry after a lost answer (or a crash) is the same request again,
   * answered by the server with the first result. Content the server already holds for this
   * property (a lost ledger, a document retitled in the panel, a copy) is answered
   * `alreadyPublished` with that document: recorded, not published again (issue 32).
   */
  private async publishProperty(document: PlannedPropertyDocument): Promise<void> {
    const relative = document.entry.path;
    let entry = this.ledger.get(relative);
    if (!entry || entry.missing || entry.sha256 === null || !this.wantsWork(entry)) return;
    const sha256 = entry.sha256;
    const destination = destinationOf(document);
    const publication = publicationKey(destination, sha256);
    if (this.sending.has(publication)) {
      this.wake();
      return;
    }
    this.sending.add(publication);
    const file = { absolutePath: path.join(this.options.folder, relative), name: document.filename };
    const attempts = entry.attempts + 1;
    try {
      if (entry.documentId !== null && !entry.destination) {
        // A ledger written before destinations were recorded may hold another property's document
        // for this file (the same content was taken for a copy of it): asked of the server first.
        entry = await this.adoptDestination(entry, destination);
        if (entry.state === 'published' && entry.publishedSha256 === sha256) return;
      }
      if (entry.documentId !== null && entry.publishedSha256 !== null && entry.publishedSha256 !== sha256) {
        this.setState(relative, { state: 'publishing', attempts }, 'Replacing the published file');
        await this.ledger.save();
        // The server refuses (409) a document filed elsewhere: that waits for a person, never retried.
        const answer = await this.options.portal.replaceDocument(entry.documentId, file, { property: document.property });
        this.setState(
          relative,
          { state: 'published', publishedSha256: sha256, destination, attempts: 0, nextRetryAt: null, lastError: null },
          answer.unchanged ? `The portal already had this file for document ${entry.documentId}: nothing changed` : `Replaced the file of document ${entry.documentId}`,
        );
        return;
      }
      const twin = this.ledger.publishedAs(publication);
      if (twin && twin.path !== relative) {
        this.setState(
          relative,
          { state: 'published', documentId: twin.documentId, publishedSha256: sha256, destination, attempts: 0, nextRetryAt: null, lastError: null },
          `Already published from ${twin.path} (same content, same property): not sent again`,
        );
        return;
      }
      const idempotencyKey = entry.uploadKey ?? uploadKeyOf(publication, document);
      this.setState(relative, { state: 'publishing', attempts, uploadKey: idempotencyKey }, 'Publishing');
      await this.ledger.save();
      if (this.stopped) return;
      // The e-mail waits for the batch's digest (notifyBatch), sent once the batch has settled.
      const answer = await this.options.portal.uploadDocument(
        {
          title: document.title,
          property: document.property,
          year: document.year,
          quarter: document.quarter,
          emailNotification: this.notifies,
          notifyLater: this.notifies,
        },
        file,
        { idempotencyKey },
      );
      const published = answer.document;
      // Already published: an earlier upload of ours whose digest may still be owed, or someone
      // else's; the server announces a document once at most, so asking again is harmless.
      const message = answer.alreadyPublished
        ? `Already on the portal as document ${published.id}${
            published.year !== document.year || published.quarter !== document.quarter ? `, filed ${published.quarter} ${published.year}` : ''
          }${published.title !== document.title ? ` as "${published.title}"` : ''}: not published again`
        : `Published as "${document.title}" (${document.property}, ${document.quarter} ${document.year}), document ${published.id}`;
      this.setState(
        relative,
        {
          state: 'published',
          documentId: published.id,
          publishedSha256: sha256,
          destination,
          attempts: 0,
          nextRetryAt: null,
          lastError: null,
          uploadKey: null,
          ...this.digestDue(),
        },
        message,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.markMissing(relative);
        return;
      }
      this.failed(relative, error, attempts);
    } finally {
      this.sending.delete(publication);
    }
  }

  /**
   * An entry from before destinations were recorded: its document is looked up on the portal.
   * Filed under this file's own property, the destination is written down; filed under another
   * (the old engine took the same content under two properties for one publication), the entry
   * forgets it, and the file is published to its own property as any new one.
   */
  private async adoptDestination(entry: LedgerEntry, destination: Destination): Promise<LedgerEntry> {
    if (!this.serverDocuments || Date.now() - this.serverDocuments.at > 60_000) {
      this.serverDocuments = { documents: await this.options.portal.propertyDocuments(), at: Date.now() };
    }
    const onPortal = this.serverDocuments.documents.find((d) => d.id === entry.documentId);
    // Deleted on the portal, or filed under this file's own property: the file's destination is
    // written down (a replace of a deleted document is refused and waits for a person).
    if (!onPortal || destinationKey({ kind: 'property', property: onPortal.property }) === destinationKey(destination)) {
      return this.ledger.update(entry.path, { destination });
    }
    this.emit({
      path: entry.path,
      state: 'waiting',
      message: `Recorded against document ${onPortal.id} of ${onPortal.property}, which is not this file's property: published for ${
        destination.kind === 'property' ? destination.property : destination.email
      } instead`,
    });
    return this.ledger.update(entry.path, { state: 'waiting', documentId: null, publishedSha256: null, notifyPending: false });
  }

  /**
   * A manifest and its folder, as one batch: planned here with the server's knowledge of the
   * manifest's investors and the files' hashes, then sent with only the rows that publish, under
   * an Idempotency-Key of its content, so a retried batch is answered, not published again. The
   * request is written down (`pendingBatch`) before it is sent: after a lost answer or a crash
   * the very same request is sent again rather than planned afresh (which would find its rows
   * already published and lose what the answer said: the documents' ids and owed e-mails).
   */
  private async publishManifest(manifest: PlannedManifest, signature: string): Promise<void> {
    const manifestPath = manifest.entry.path;
    const entry = this.ledger.get(manifestPath);
    if (!entry || entry.missing || !this.wantsWork(entry)) return;
    const attempts = entry.attempts + 1;
    const files = manifest.files.map((f) => ({ name: f.name, size: f.entry.size, sha256: f.entry.sha256, path: f.entry.path }));
    const pathOf = new Map(files.map((f) => [f.name, f.path]));
    try {
      let batch = entry.pendingBatch?.signature === signature ? entry.pendingBatch : null;
      if (!batch) {
        const planned = await this.planBatch(manifest, signature, files);
        if (!planned || this.stopped) return;
        if (!planned.batch) {
          this.manifestDone(manifestPath, signature, planned.problems);
          return;
        }
        batch = planned.batch;
      }
      await this.sendBatch(manifest, signature, attempts, batch, pathOf);
    } catch (error) {
      // The batch's files share its fate: waiting for its next attempt, or failed with it.
      const gaveUp = isRefusal(error) || attempts >= this.maxAttempts;
      for (const file of files) {
        const current = this.ledger.get(file.path);
        if (this.stopped || (current?.state !== 'publishing' && current?.state !== 'waiting')) continue;
        this.ledger.update(file.path, gaveUp ? { state: 'failed', lastError: `The batch of manifest.csv failed: ${messageOf(error)}`, nextRetryAt: null } : { state: 'waiting' });
      }
      // A batch the portal refused is planned afresh once the folder changes.
      if (isRefusal(error) && !this.stopped) this.ledger.update(manifestPath, { pendingBatch: null });
      this.failed(manifestPath, error, attempts);
    }
  }

  private manifestDone(manifestPath: string, signature: string, problems: string[]): void {
    this.setState(
      manifestPath,
      { state: 'published', batchSignature: signature, pendingBatch: null, attempts: 0, nextRetryAt: null, lastError: problems.length > 0 ? problems.join('; ') : null },
      problems.length > 0 ? `Manifest read, with problems: ${problems.join('; ')}` : 'Manifest published',
    );
  }

  /**
   * Plans a manifest's rows: problems reported, changed files put under their documents, and the
   * request that publishes the rest (null when there is none). Null when the manifest is refused whole.
   */
  private async planBatch(
    manifest: PlannedManifest,
    signature: string,
    files: { name: string; size: number; sha256?: string; path: string }[],
  ): Promise<{ batch: PendingBatch | null; problems: string[] } | null> {
    const manifestPath = manifest.entry.path;
    // Files beside the manifest that the portal would refuse (too large, empty…) are not sent, but
    // a row naming one says why, not 'file not found' (issue 32); each keeps its own reason.
    const refusedFiles = this.ledger.all().flatMap((e) => {
      if (e.missing || e.path === manifestPath || path.posix.dirname(e.path) !== manifest.folder || files.some((f) => f.path === e.path)) return [];
      const name = path.posix.basename(e.path).normalize('NFC');
      const refusal = documentRefusal({ name, size: e.size });
      return refusal ? [{ name, size: e.size, path: e.path, refusal }] : [];
    });
    // Read as the user import reads a CSV: UTF-8 with or without BOM, else Windows-1252 (Excel).
    const { text: csvText, encoding } = decodeCsvBytes(await readFile(path.join(this.options.folder, manifestPath)));
    const hashes = [...new Set(files.map((f) => f.sha256).filter((s): s is string => Boolean(s)))];
    const known = await this.options.portal.bulkPreview(manifestEmails(csvText), hashes);
    // A file changed in place that this sync published: its documents (same investor, same
    // title) get the new file instead of a second document, so their titles are not "used".
    const replaceable = this.replaceablePersonalDocuments(files.map((f) => f.path));
    const plan = planBulkManifest({
      csvText,
      encoding,
      files: [...files, ...refusedFiles],
      // Rows without a document_date are filed under the quarter folder's period (issue 32).
      period: { year: manifest.year, quarter: manifest.quarter },
      usersByEmail: new Map(known.users.map((u) => [u.email.toLowerCase(), u.userId])),
      publishedHashes: new Map(known.users.map((u) => [u.userId, new Set(u.publishedSha256)])),
      publishedTitles: new Map(
        known.users.map((u) => [u.userId, new Set(u.titles.filter((title) => !replaceable.has(personalKey(u.email, title))))]),
      ),
    });
    if (plan.error) {
      // A manifest that cannot be read whole publishes nothing (issue 32): its files wait with
      // it, each saying why, until the manifest changes (the batch's signature is kept).
      this.setState(manifestPath, { state: 'needs-attention', lastError: plan.error, batchSignature: signature }, plan.error);
      const refused = `${path.basename(manifestPath)} was refused: ${plan.error}`;
      for (const file of files) {
        const current = this.ledger.get(file.path);
        if (current && current.state !== 'published') this.setState(file.path, { state: 'needs-attention', lastError: refused }, refused);
      }
      return null;
    }
    const pathOf = new Map(files.map((f) => [f.name, f.path]));
    const refusedNames = new Set(refusedFiles.map((f) => f.name));
    const problems: string[] = [];
    const toSend: typeof plan.rows = [];
    // A file named by a good row and a bad one (a second investor unknown, say) is published
    // for the good row; the bad row is reported on the manifest.
    const goodFiles = new Set(plan.rows.filter((row) => row.outcome === 'publish' || row.outcome === 'already-published').map((row) => row.filename));
    const replacements: PersonalReplacement[] = [];
    for (const row of plan.rows) {
      const filePath = pathOf.get(row.filename);
      const replacing = row.outcome === 'publish' ? replaceable.get(personalKey(row.email, row.title)) : undefined;
      if (row.outcome === 'publish' && replacing && replacing.filePath === filePath) {
        replacements.push({ filePath, name: row.file.name, documentId: replacing.documentId, email: row.email, title: row.title });
      } else if (row.outcome === 'publish') toSend.push(row);
      else if (row.outcome === 'already-published') {
        if (filePath && !toSend.some((r) => r.filename === row.filename)) {
          this.setState(filePath, { state: 'published', publishedSha256: this.ledger.get(filePath)?.sha256 ?? null, lastError: null }, `Already published for ${row.email}: not sent again`);
        }
      } else {
        problems.push(`row ${row.row}: ${row.error}`);
        if (filePath && !goodFiles.has(row.filename) && !refusedNames.has(row.filename)) {
          this.setState(filePath, { state: 'needs-attention', lastError: `manifest.csv row ${row.row}: ${row.error}` }, `Manifest row ${row.row}: ${row.error}`);
        }
      }
    }
    for (const name of plan.unprocessed) {
      if (refusedNames.has(name)) continue;
      const filePath = pathOf.get(name);
      if (filePath) this.setState(filePath, { kind: 'unmatched', state: 'needs-attention', lastError: 'Not named by manifest.csv.' }, 'Not named by manifest.csv');
    }

    await this.replacePersonalDocuments(replacements, problems);
    if (toSend.length === 0) return { batch: null, problems };

    const header = 'email,filename,document_category,title,description,document_date,tags';
    const lines = toSend.map((row) =>
      row.outcome === 'publish'
        ? [row.email, row.file.name, row.documentCategory, row.title, row.description, row.documentDate ?? '', row.tags].map(manifestCell).join(',')
        : '',
    );
    const text = [header, ...lines].join('\r\n');
    const sent = [...new Set(toSend.map((row) => row.filename))];
    // The batch's period is part of what it asks: the same files from another quarter folder
    // are another batch.
    const idempotencyKey = createHash('sha256')
      .update([`${manifest.year}-${manifest.quarter}`, text, ...sent.map((name) => files.find((f) => f.name === name)?.sha256 ?? name).sort()].join('\n'))
      .digest('hex');
    return { batch: { signature, idempotencyKey, text, files: sent, rows: toSend.length, problems }, problems };
  }

  /** Sends a planned batch (or sends it again, after a lost answer) and records what the portal answered. */
  private async sendBatch(manifest: PlannedManifest, signature: string, attempts: number, batch: PendingBatch, pathOf: Map<string, string>): Promise<void> {
    const manifestPath = manifest.entry.path;
    this.setState(manifestPath, { state: 'publishing', attempts, pendingBatch: batch }, `Publishing ${batch.rows} personal documents`);
    for (const name of batch.files) this.setState(pathOf.get(name)!, { state: 'publishing' }, 'Publishing');
    await this.ledger.save();
    if (this.stopped) return;
    const answer = await this.options.portal.bulkUpload(
      { name: 'manifest.csv', text: batch.text },
      batch.files.map((name) => ({ absolutePath: path.join(this.options.folder, pathOf.get(name)!), name })),
      // The quarter folder's period (a row's own document_date still wins); with e-mail, the
      // batch's e-mails wait for the digest that also covers the folder's property documents.
      { emailNotification: this.notifies, idempotencyKey: batch.idempotencyKey, year: manifest.year, quarter: manifest.quarter, notifyLater: this.notifies },
    );
    const problems = [...batch.problems];
    const pending = new Set(answer.pendingUserDocumentIds ?? []);
    for (const done of answer.successful) {
      const filePath = pathOf.get(done.filename);
      if (filePath) {
        const entry = this.ledger.get(filePath);
        const record: PublishedPersonalDocument = {
          email: done.userEmail.toLowerCase(),
          title: done.title,
          documentId: done.documentId,
          ...(pending.has(done.documentId) ? { notifyPending: true } : {}),
        };
        const personalDocuments = [...(entry?.personalDocuments ?? []).filter((d) => d.documentId !== done.documentId), record];
        this.setState(
          filePath,
          { state: 'published', documentId: done.documentId, publishedSha256: entry?.sha256 ?? null, attempts: 0, lastError: null, personalDocuments },
          `Published as "${done.title}" for ${done.userEmail}, document ${done.documentId}`,
        );
      }
    }
    // Rows the investor already had (this batch answered again under its key, or content
    // published before): on the portal, not failures, and not published again.
    for (const already of answer.alreadyPublished) {
      const filePath = pathOf.get(already.filename);
      if (!filePath || answer.successful.some((done) => done.filename === already.filename)) continue;
      const entry = this.ledger.get(filePath);
      const personalDocuments =
        already.documentId === undefined
          ? entry?.personalDocuments
          : [
              ...(entry?.personalDocuments ?? []).filter((d) => d.documentId !== already.documentId),
              {
                email: already.userEmail.toLowerCase(),
                title: already.title,
                documentId: already.documentId,
                // A batch answered again under its key (its first answer lost) keeps its digest owed.
                ...(pending.has(already.documentId) ? { notifyPending: true } : {}),
              },
            ];
      this.setState(
        filePath,
        { state: 'published', publishedSha256: entry?.sha256 ?? null, attempts: 0, lastError: null, ...(personalDocuments ? { personalDocuments } : {}) },
        `Already on the portal for ${already.userEmail}${already.documentId === undefined ? '' : ` as document ${already.documentId}`}: not published again`,
      );
    }
    for (const failure of answer.failed) {
      problems.push(`${failure.filename}: ${failure.error}`);
      const filePath = pathOf.get(failure.filename);
      if (filePath) this.setState(filePath, { state: 'needs-attention', lastError: failure.error }, `Refused by the portal: ${failure.error}`);
    }
    this.manifestDone(manifestPath, signature, problems);
  }

  /**
   * The personal documents this sync published from these files whose content has changed
   * since, by investor and title: replaced, not published a second time.
   */
  private replaceablePersonalDocuments(paths: string[]): Map<string, { filePath: string; documentId: number }> {
    const replaceable = new Map<string, { filePath: string; documentId: number }>();
    for (const filePath of paths) {
      const entry = this.ledger.get(filePath);
      if (!entry?.personalDocuments || entry.sha256 === null || entry.publishedSha256 === null || entry.sha256 === entry.publishedSha256) continue;
      for (const document of entry.personalDocuments) {
        replaceable.set(personalKey(document.email, document.title), { filePath, documentId: document.documentId });
      }
    }
    return replaceable;
  }

  /**
   * Puts each changed file under its documents. A refusal (the document deleted in the panel,
   * the content already another document of that investor) leaves that file for a person; a
   * network failure fails the batch, which is tried again whole (a replace sent twice is harmless).
   */
  private async replacePersonalDocuments(replacements: PersonalReplacement[], problems: string[]): Promise<void> {
    const refused = new Set<string>();
    const replaced = new Map<string, string[]>();
    for (const { filePath, name, documentId, email, title } of replacements) {
      if (this.stopped) return;
      if (refused.has(filePath)) continue;
      this.setState(filePath, { state: 'publishing' }, `Replacing the file of "${title}" for ${email}`);
      await this.ledger.save();
      try {
        await this.options.portal.replaceUserDocument(documentId, { absolutePath: path.join(this.options.folder, filePath), name }, { userEmail: email });
      } catch (error) {
        if (!isRefusal(error)) throw error;
        refused.add(filePath);
        problems.push(`${name}: ${error.message}`);
        this.setState(filePath, { state: 'needs-attention', lastError: error.message }, `Refused by the portal: ${error.message}`);
        continue;
      }
      replaced.set(filePath, [...(replaced.get(filePath) ?? []), `"${title}" for ${email} (document ${documentId})`]);
    }
    for (const [filePath, documents] of replaced) {
      if (refused.has(filePath)) continue;
      this.setState(
        filePath,
        { state: 'published', publishedSha256: this.ledger.get(filePath)?.sha256 ?? null, attempts: 0, nextRetryAt: null, lastError: null },
        `Replaced the file of ${documents.join(', ')}`,
      );
    }
  }

  // ---- The batch digest ------------------------------------------------------------------------

  private get notifies(): boolean {
    return this.options.emailNotification ?? false;
  }

  /** The ledger change that marks a new property document's e-mail as waiting for its batch's digest. */
  private digestDue(): Partial<LedgerEntry> {
    return this.notifies ? { notifyPending: true } : {};
  }

  private digestFailures = 0;
  private nextDigestAt = 0;

  private gaveUpDigest(): boolean {
    return this.digestFailures >= this.maxAttempts;
  }

  /** Documents published with their e-mail deferred whose digest is not confirmed: property and personal. */
  private pendingDigest(): { documentIds: number[]; userDocumentIds: number[] } {
    const documentIds = new Set<number>();
    const userDocumentIds = new Set<number>();
    for (const entry of this.ledger.all()) {
      if (entry.notifyPending === true && entry.documentId !== null) documentIds.add(entry.documentId);
      for (const personal of entry.personalDocuments ?? []) if (personal.notifyPending === true) userDocumentIds.add(personal.documentId);
    }
    return { documentIds: [...documentIds], userDocumentIds: [...userDocumentIds] };
  }

  private digestsPending(): boolean {
    if (!this.notifies) return false;
    const pending = this.pendingDigest();
    return pending.documentIds.length + pending.userDocumentIds.length > 0;
  }

  /**
   * A batch has settled when no file is settling, no property document or manifest batch is
   * queued, being sent or waiting to be planned: then one notify-documents call announces
   * everything published since the last digest, property and personal documents together, and
   * the server sends each reader one e-mail for it. A file or batch failing for a moment (a lost
   * answer is one retry away) holds it back; one still failing after `digestPatience` attempts
   * does not, and joins the next digest.
   */
  private considerDigest(): void {
    if (this.stopped || !this.digestsPending() || this.gaveUpDigest() || Date.now() < this.nextDigestAt) return;
    if (this.candidates.size > 0) return;
    const publishingJob = (key: string) => key.startsWith('p:') || key.startsWith('m:');
    if (this.queue.some(publishingJob) || [...this.running].some(publishingJob)) return;
    const unsettled = this.ledger
      .all()
      .some(
        (e) =>
          !e.missing &&
          (e.kind === 'property' || e.kind === 'manifest' || e.kind === 'unmatched') &&
          (e.state === 'waiting' || e.state === 'publishing' || (e.state === 'failed' && e.nextRetryAt !== null && e.attempts < digestPatience)),
      );
    if (unsettled) return;
    this.enqueue('n:digest', () => this.notifyBatch());
    this.pump();
  }

  private async notifyBatch(): Promise<void> {
    const { documentIds, userDocumentIds } = this.pendingDigest();
    try {
      // The route takes up to 1000 property and 10000 personal documents a call: a larger batch
      // is announced in parts.
      for (let part = 0; part * 1000 < documentIds.length || part * 10_000 < userDocumentIds.length; part += 1) {
        const ids = {
          documentIds: documentIds.slice(part * 1000, (part + 1) * 1000),
          userDocumentIds: userDocumentIds.slice(part * 10_000, (part + 1) * 10_000),
        };
        const answer = await this.options.portal.notifyDocuments(ids);
        if (this.stopped) return;
        const announced = { property: new Set(ids.documentIds), personal: new Set(ids.userDocumentIds) };
        for (const entry of this.ledger.all()) {
          const change: Partial<LedgerEntry> = {};
          if (entry.notifyPending === true && entry.documentId !== null && announced.property.has(entry.documentId)) change.notifyPending = false;
          if (entry.personalDocuments?.some((d) => d.notifyPending === true && announced.personal.has(d.documentId))) {
            change.personalDocuments = entry.personalDocuments.map(({ notifyPending, ...d }) =>
              notifyPending === true && !announced.personal.has(d.documentId) ? { ...d, notifyPending } : d,
            );
          }
          if (Object.keys(change).length > 0) this.ledger.update(entry.path, change);
        }
        const count = answer.documentIds.length + answer.userDocumentIds.length;
        this.emit({
          path: '.',
          state: 'published',
          message:
            count === 0
              ? 'E-mail: nothing new to announce (already announced)'
              : `E-mail: ${answer.notified} ${answer.notified === 1 ? 'person' : 'people'} sent one digest of ${count} new document(s)`,
        });
      }
      this.digestFailures = 0;
      this.nextDigestAt = 0;
      await this.ledger.save();
    } catch (error) {
      if (this.stopped) return;
      this.digestFailures += 1;
      // A refusal will not pass by retrying: given up at once, and said so.
      if (isRefusal(error)) this.digestFailures = Number.POSITIVE_INFINITY;
      this.nextDigestAt = Date.now() + retryDelayMs(this.digestFailures, this.backoff);
      this.emit({ path: '.', state: 'failed', message: `The e-mail digest could not be sent (attempt ${this.digestFailures}): ${messageOf(error)}` });
    }
  }

  // ---- Waiting ---------------------------------------------------------------------------------

  private isIdle(): boolean {
    if (this.gaveUpReaching()) return this.running.size === 0;
    if (this.candidates.size > 0 || this.queue.length > 0 || this.running.size > 0 || this.scanning || this.wakeRequested) return false;
    // A digest still to send keeps a one-off run waiting, unless the portal kept failing it.
    if (this.digestsPending() && !this.gaveUpDigest()) return false;
    // Failures that will be tried again keep a one-off run waiting for them.
    return !this.ledger.all().some((e) => !e.missing && (e.state === 'waiting' || e.state === 'publishing' || (e.state === 'failed' && this.mayRetry(e) && e.nextRetryAt !== null)));
  }

  private settleIdle(): void {
    if (!this.isIdle()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private emit(event: SyncEvent): void {
    this.options.onEvent?.(event);
  }
}
