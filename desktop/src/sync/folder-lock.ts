// One sync per folder: when the desktop app on a staff machine and the headless sync on the
// file server watched the same folder, ten new files became sixteen documents.
// The lock is a small file IN the watched folder, the only place every machine that sees the
// folder also sees: it names its holder and is refreshed while held, so that one left by a
// process that died (same machine: its pid is gone; another machine: not refreshed for
// staleMs) is taken over. A folder the sync may not write to gets its lock beside the ledger
// instead, which only guards this machine; the portal's idempotency is the guard behind both.

import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { syncLockFileName, timeZone } from '@everest/core/domain';
import { printable } from './report';

export const lockFileName = syncLockFileName;

/** The lock and the sync's own temporary copies of it: never files of the folder. */
export function isLockFileName(name: string): boolean {
  return name === lockFileName || name.startsWith(`${lockFileName}.`);
}

export type SyncRunner = 'desktop app' | 'command line';

export interface LockHolder {
  id: string;
  host: string;
  user: string;
  pid: number;
  runBy: SyncRunner;
  /** ISO time the lock was taken. */
  since: string;
}

export class FolderLocked extends Error {
  override readonly name = 'FolderLocked';
  constructor(readonly holder: LockHolder) {
    super(folderLockedSentence(holder));
  }
}

/** A lock's field as shown: anyone who can write the folder wrote it, so no control characters and at most 100 characters. */
const shown = (value: unknown) => printable(String(value)).slice(0, 100);

export function folderLockedSentence(holder: LockHolder): string {
  const at = new Date(holder.since);
  const since = Number.isNaN(at.getTime()) ? 'an unknown time' : at.toLocaleString('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' });
  const runBy = holder.runBy === 'desktop app' ? 'desktop app' : 'command line';
  return `This folder is already being synced by the ${runBy} of ${shown(holder.user)} on ${shown(holder.host)} (process ${shown(holder.pid)}) since ${since}. Only one sync may publish a folder at a time: stop that one first.`;
}

function holderOf(text: string): LockHolder | null {
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    return typeof parsed.id === 'string' && typeof parsed.host === 'string' && typeof parsed.pid === 'number' ? (parsed as LockHolder) : null;
  } catch {
    return null;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Errors that mean "this folder may not be written": the lock goes beside the ledger instead. */
const notWritable = new Set(['EACCES', 'EPERM', 'EROFS']);

export class FolderLock {
  /** The timer that keeps the lock fresh while it is held (keepFresh), or null. */
  private refresher: NodeJS.Timeout | null = null;

  private constructor(
    readonly file: string,
    readonly holder: LockHolder,
    /** False when the folder could not be written and the lock guards this machine only. */
    readonly inFolder: boolean,
  ) {}

  /**
   * Takes the folder's lock, or throws FolderLocked naming who holds it. A stale lock (its
   * process gone, or not refreshed for staleMs) is taken over: moved aside under a name of our
   * own, checked to be the stale one read, and put back (link fails when a lock exists) if
   * another sync took it over first.
   */
  static async acquire(folder: string, options: { runBy: SyncRunner; fallbackFile: string; staleMs: number }): Promise<FolderLock> {
    const holder: LockHolder = {
      id: randomUUID(),
      host: os.hostname(),
      user: os.userInfo().username,
      pid: process.pid,
      runBy: options.runBy,
      since: new Date().toISOString(),
    };
    try {
      return await FolderLock.take(path.join(folder, lockFileName), holder, options.staleMs, true);
    } catch (error) {
      if (!notWritable.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      return FolderLock.take(options.fallbackFile, holder, options.staleMs, false);
    }
  }

  private static async take(file: string, holder: LockHolder, staleMs: number, inFolder: boolean): Promise<FolderLock> {
    for (let round = 0; round < 5; round += 1) {
      try {
        const handle = await open(file, 'wx');
        try {
          await handle.writeFile(JSON.stringify(holder));
          await handle.sync();
        } finally {
          await handle.close();
        }
        return new FolderLock(file, holder, inFolder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      let text: string;
      let modified: number;
      try {
        [text, modified] = await Promise.all([readFile(file, 'utf8'), stat(file).then((s) => s.mtimeMs)]);
      } catch {
        continue; // Released meanwhile: try again.
      }
      const current = holderOf(text);
      // A lock being written this instant reads empty: wait for its writer rather than take it.
      if (!current && Date.now() - modified < 2_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      const stale =
        !current ||
        (current.host === holder.host && !processIsAlive(current.pid)) ||
        Date.now() - modified > staleMs;
      if (!stale) throw new FolderLocked(current);
      const aside = `${file}.${holder.id}.stale`;
      try {
        await rename(file, aside);
      } catch {
        continue;
      }
      if ((await readFile(aside, 'utf8')) !== text) {
        // Another sync took the stale lock over first and this moved its fresh one: put it back.
        await link(aside, file).catch(() => undefined);
      }
      await rm(aside, { force: true });
    }
    throw new Error(`The folder's lock (${file}) keeps changing hands: another sync is starting on it.`);
  }

  /**
   * Marks the lock as alive (its mtime). False when it is no longer ours: taken over by another
   * sync while this one was asleep or cut off, which must then stop.
   */
  async refresh(): Promise<boolean> {
    try {
      if (holderOf(await readFile(this.file, 'utf8'))?.id !== this.holder.id) return false;
      const now = new Date();
      await utimes(this.file, now, now);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Refreshes the lock every `everyMs` until stopRefreshing or release. `onLost` is called when a
   * refresh finds the lock no longer ours: the sync must then stop, so that only one publishes.
   */
  keepFresh(everyMs: number, onLost: () => void): void {
    this.stopRefreshing();
    const timer = setInterval(() => {
      void this.refresh().then((ours) => {
        // Stopped meanwhile: the sync is ending anyway and says nothing more.
        if (!ours && this.refresher === timer) onLost();
      });
    }, everyMs);
    this.refresher = timer;
  }

  /** Stops refreshing the lock (it stays taken until release). */
  stopRefreshing(): void {
    if (this.refresher) clearInterval(this.refresher);
    this.refresher = null;
  }

  /** Removes the lock if it is still ours. */
  async release(): Promise<void> {
    this.stopRefreshing();
    try {
      if (holderOf(await readFile(this.file, 'utf8'))?.id === this.holder.id) await rm(this.file, { force: true });
    } catch {
      // Already gone.
    }
  }
}
