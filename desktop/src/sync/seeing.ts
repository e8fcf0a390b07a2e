// Seeing files: what the full scans and the watcher's events say of the folder, turned into the
// ledger's knowledge. A file whose size and mtime the ledger already knows, with its hash, is not
// read again; any other waits in the stability window (stability.ts) and is read once finished;
// a file gone is marked missing, never deleted from the portal.

import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { SyncContext } from './context';
import { messageOf } from './failures';
import type { Heads } from './plan';
import { isSkippedName, walkFolder, watchFolder } from './scan';
import type { Settling } from './stability';

/** What seeing files needs of the engine. */
export interface SeeingHost extends Pick<SyncContext, 'folder' | 'ledger' | 'setState' | 'emit' | 'wake' | 'stopped'> {
  readonly settling: Settling;
  readonly heads: Heads;
  /** A file moved: the folder is busy, and the digest waits for it to be quiet. */
  activity(): void;
  /** The portal's property list is asked for again at the next plan. */
  forgetPropertyList(): void;
  /** Resolves the idle waiters if nothing is left to do. */
  settleIdle(): void;
  /** Runs a tick: the files due are read, the folder planned. */
  tick(): Promise<void>;
}

export class FolderSight {
  private scanning: Promise<void> | null = null;
  private scansDone = 0;
  private watcher: FSWatcher | null = null;
  /** The watcher's own timers: a new folder read again, the scan once the watcher is armed. */
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly host: SeeingHost) {}

  /** Full scans completed since start. */
  get scanCount(): number {
    return this.scansDone;
  }

  /** A full scan is under way. */
  get isScanning(): boolean {
    return this.scanning !== null;
  }

  /**
   * Watches the folder for changes (scan.ts's watchFolder), resolved once the watcher is armed.
   * `stabilityMs`: the window a new folder is read again after, and the least wait before the
   * scan that catches what changed while the watcher was being armed.
   */
  async watch(options: { poll?: boolean; pollIntervalMs?: number; stabilityMs: number }): Promise<void> {
    const { host } = this;
    this.watcher = watchFolder(host.folder, options, {
      seen: (relative, stats) => void this.observe(relative, stats),
      // A new folder may fill between chokidar's first read of it and the start of its own
      // watcher (polling makes that window wide), and those files would wait for the next full
      // scan: it is read again now and once more after a stability window.
      folderAdded: (relative) => {
        void this.scanFolder(relative);
        const again = setTimeout(() => {
          this.timers = this.timers.filter((t) => t !== again);
          void this.scanFolder(relative);
        }, options.stabilityMs);
        this.timers.push(again);
      },
      gone: (relative) => this.markMissing(relative),
      error: (error) => host.emit({ path: '.', state: 'failed', message: `Watching failed: ${messageOf(error)}` }),
    });
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));
    // What changed between the first scan and the watcher being armed (a poller takes its
    // first look only after an interval) has no event: one more scan once it surely is.
    const primed = setTimeout(() => void this.scan(), Math.max(options.stabilityMs, 2 * (options.pollIntervalMs ?? 2_000)));
    this.timers.push(primed);
  }

  /** Stops watching: its timers at once, then the watcher. */
  async stopWatching(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    await this.watcher?.close();
    this.watcher = null;
  }

  /** A full scan: every file is observed, and ledger entries whose file is gone are marked missing. */
  scan(): Promise<void> {
    const { host } = this;
    this.scanning ??= (async () => {
      try {
        const { files, skipped } = await walkFolder(host.folder);
        host.ledger.skipped = skipped.sort();
        const present = new Set(files);
        for (const entry of host.ledger.all()) if (!entry.missing && !present.has(entry.path)) this.markMissing(entry.path);
        // A new scan also asks again for the property list: a property created on the portal
        // since turns its waiting folder into documents.
        host.forgetPropertyList();
        await Promise.all(files.map((file) => this.observe(file, undefined, true)));
        this.scansDone += 1;
      } finally {
        this.scanning = null;
      }
      await host.tick();
    })();
    return this.scanning;
  }

  /** Observes every file below one folder (a new folder the watcher saw). */
  async scanFolder(relative: string): Promise<void> {
    if (this.host.stopped() || relative === '' || relative.startsWith('..')) return;
    for (const file of (await walkFolder(this.host.folder, relative)).files) await this.observe(file);
  }

  /** A file seen (by a scan, `rescan`, or an event with its stats): known content wakes the plan, new content waits. */
  async observe(relative: string, stats?: Stats, rescan = false): Promise<void> {
    const { host } = this;
    if (host.stopped() || relative.split('/').some(isSkippedName)) return;
    let current = stats;
    if (!current) {
      try {
        current = await stat(path.join(host.folder, relative));
      } catch {
        return;
      }
    }
    if (!current.isFile()) return;
    const { size, mtimeMs } = current;
    const entry = host.ledger.get(relative);
    if (entry && entry.size === size && entry.mtimeMs === mtimeMs && entry.sha256 !== null) {
      // Known content: nothing to read again. A missing file that came back is present again.
      if (entry.missing) host.ledger.update(relative, { missing: false });
      if (entry.state !== 'published' && entry.state !== 'needs-attention') host.wake();
      else if (rescan) host.wake();
      return;
    }
    if (host.settling.observe(relative, size, mtimeMs)) {
      host.activity();
      host.settling.announceWriting(relative);
    }
  }

  markMissing(relative: string): void {
    const { host } = this;
    host.settling.forget(relative);
    const entry = host.ledger.get(relative);
    if (!entry || entry.missing) return;
    host.ledger.update(relative, { missing: true });
    // Deleting a file locally never deletes from the portal: what the sync says depends only on
    // whether the portal holds a document of this file's, so that nobody fears a lost document.
    const message =
      entry.state === 'published' && entry.documentId !== null && !entry.filedElsewhere
        ? 'Deleted locally: the portal keeps its document.'
        : entry.state === 'published'
          ? 'Deleted locally: the portal keeps what it had.'
          : 'Deleted locally before it was published: nothing was sent.';
    host.emit({ path: relative, state: 'missing', message });
    void host.ledger.save();
    host.settleIdle();
  }

  /** Reads the files whose size and mtime stood still for the window: finished, or still being written. True when one was read. */
  settle(): Promise<boolean> {
    const { host } = this;
    return host.settling.settle((relative, candidate, read) => {
      host.heads.set(relative, read.head);
      host.ledger.recordRead(relative, candidate.size, candidate.mtimeMs, read.sha256);
      if (read.kind === 'incomplete') {
        host.setState(relative, { kind: 'unmatched', state: 'needs-attention', lastError: read.reason, incomplete: read.reason }, read.reason);
      }
    });
  }
}
