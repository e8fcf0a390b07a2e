// When a file is finished: its size and mtime have stood still for the stability
// window, it can be opened for reading (on Windows a scanner or an editor still writing holds it
// with a share mode that refuses readers), and its content checks out: a PDF ends with its
// trailer. A scanner writing a page every few seconds fails one of these between pages.
//
// Some scanners write a PDF as incremental updates, each chunk ending in its own %%EOF: between
// chunks the file looks finished. So the wait is not only the window: a file seen written in
// bursts waits twice the longest pause seen between its writes (remembered across a read, so
// that the rest of a scan published too early is one correction, not one per chunk), and a
// new file that appears while the sync watches waits twice the window, up to the default
// window, before its first read: its writer's first pause cannot be known before it happens.

import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  documentContainerOf,
  documentContainers,
  documentExtensionOf,
  documentHeadBytes,
  documentIncompleteness,
  documentTailBytes,
} from '@everest/core/domain';

/** The shortest stability window a person may set (the command's --stability-seconds). */
export const minimumStabilitySeconds = 5;

export const stabilityMessages = {
  tooShort: `The stability window must be at least ${minimumStabilitySeconds} seconds: scanners pause that long between pages, and a shorter wait would publish half a scan.`,
} as const;

/** The default window, which a new file's first wait never exceeds (a scanner pauses about 5 s between pages). */
export const defaultStabilityMs = 10_000;

/** A pause longer than this between two writes is a new edit, not a writer's rhythm. */
const writerPauseLimitMs = 60_000;

/** A file seen changing, waiting for its size and mtime to stand still. */
export interface Candidate {
  size: number;
  mtimeMs: number;
  /** When size and mtime were last seen to move (or the file last failed a check). */
  since: number;
  /** When the file was first seen in this wait. */
  firstSeen: number;
  /** Why it is still being written, once a check has said so (null while merely settling). */
  writing: string | null;
  /** When size or mtime were last seen to move. */
  movedAt: number;
  /** The longest pause seen between two of this file's writes. */
  longestPauseMs: number;
  /** How long size and mtime must stand still: the window, or longer for a file written in bursts. */
  waitMs: number;
}

/** What is remembered of a file's writer once it has been read: its last write and longest pause. */
interface Rhythm {
  movedAt: number;
  longestPauseMs: number;
}

export const stillBeingWritten = {
  changing: 'Still being written: its size or date changed within the stability window.',
  heldOpen: 'Still being written: another program holds it open.',
} as const;

/** The files seen changing, by relative path. */
export class Candidates {
  private readonly waiting = new Map<string, Candidate>();
  private readonly rhythms = new Map<string, Rhythm>();
  private readonly newFileWaitMs: number;

  /**
   * `windowMs`: how long size and mtime must stand still. `newFileWaitMs`: the first wait of a
   * file written while the sync watches (default twice the window, at most the default window,
   * never less than the window).
   */
  constructor(
    private readonly windowMs: number,
    options: { newFileWaitMs?: number } = {},
  ) {
    this.newFileWaitMs = Math.max(windowMs, options.newFileWaitMs ?? Math.min(2 * windowMs, defaultStabilityMs));
  }

  /** Size and mtime as seen now: a new or moved file starts its wait again. True when it moved. */
  observe(relative: string, size: number, mtimeMs: number, now = Date.now()): boolean {
    const current = this.waiting.get(relative);
    if (current && current.size === size && current.mtimeMs === mtimeMs) return false;
    const before = current ?? this.rhythms.get(relative);
    const pause = before ? now - before.movedAt : 0;
    const longestPauseMs = Math.max(before?.longestPauseMs ?? 0, pause <= writerPauseLimitMs ? pause : 0);
    // A file not seen written before, changed moments ago: being written now, by a writer whose
    // pauses are not known yet. One found unchanged for long (a scan at start) waits the window.
    const writtenNow = !before && now - mtimeMs < this.newFileWaitMs;
    const waitMs = Math.max(current?.waitMs ?? this.windowMs, writtenNow ? this.newFileWaitMs : this.windowMs, 2 * longestPauseMs);
    this.waiting.set(relative, {
      size,
      mtimeMs,
      since: now,
      firstSeen: current?.firstSeen ?? now,
      // A file that moved while it was already waiting is visibly being written.
      writing: current ? stillBeingWritten.changing : null,
      movedAt: now,
      longestPauseMs,
      waitMs,
    });
    return true;
  }

  /** Starts the wait again after a failed check, saying why. */
  again(relative: string, size: number, mtimeMs: number, writing: string, now = Date.now()): void {
    const current = this.waiting.get(relative);
    const moved = !current || current.size !== size || current.mtimeMs !== mtimeMs;
    if (moved) this.observe(relative, size, mtimeMs, now);
    const updated = this.waiting.get(relative)!;
    this.waiting.set(relative, { ...updated, since: now, writing });
  }

  /** The candidates whose size and mtime stood still for their wait. */
  due(now = Date.now()): [string, Candidate][] {
    return [...this.waiting].filter(([, c]) => now - c.since >= c.waitMs);
  }

  /** The file was read: its writer's rhythm is kept for a while, should it write again. */
  settled(relative: string, now = Date.now()): void {
    const current = this.waiting.get(relative);
    this.waiting.delete(relative);
    if (current) this.rhythms.set(relative, { movedAt: current.movedAt, longestPauseMs: current.longestPauseMs });
    for (const [path, rhythm] of this.rhythms) if (now - rhythm.movedAt > writerPauseLimitMs) this.rhythms.delete(path);
  }

  get(relative: string): Candidate | undefined {
    return this.waiting.get(relative);
  }

  delete(relative: string): void {
    this.waiting.delete(relative);
  }

  get size(): number {
    return this.waiting.size;
  }

  entries(): [string, Candidate][] {
    return [...this.waiting];
  }
}

export type FileCheck =
  /** Finished: its hash, and its first bytes for core's type check. */
  | { kind: 'finished'; sha256: string; head: Uint8Array }
  /** Still being written: moved while read, held open, or its end not written yet. */
  | { kind: 'writing'; size: number; mtimeMs: number; reason: string }
  /** Its end has been missing for longer than a writer would pause: damaged, or abandoned. */
  | { kind: 'incomplete'; sha256: string; head: Uint8Array; reason: string }
  | { kind: 'gone' };

const busyCodes = new Set(['EBUSY', 'EPERM', 'EACCES']);

/**
 * Reads a settled file once: its sha256, first and last bytes, then its size and mtime again.
 * `incompleteAfterMs`: how long after its last change a file whose end is missing is taken for
 * damaged rather than still being written.
 */
export async function checkFinished(absolute: string, name: string, seen: { size: number; mtimeMs: number }, incompleteAfterMs: number, now = Date.now()): Promise<FileCheck> {
  let handle;
  try {
    handle = await open(absolute, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT') return { kind: 'gone' };
    if (busyCodes.has(code)) return { kind: 'writing', ...seen, reason: stillBeingWritten.heldOpen };
    throw error;
  }
  const hash = createHash('sha256');
  const head = Buffer.alloc(documentHeadBytes);
  let headLength = 0;
  let tail = Buffer.alloc(0);
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false })) {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      if (headLength < documentHeadBytes) headLength += bytes.copy(head, headLength, 0, documentHeadBytes - headLength);
      tail = Buffer.concat([tail, bytes]);
      if (tail.length > documentTailBytes) tail = tail.subarray(tail.length - documentTailBytes);
    }
  } finally {
    await handle.close();
  }
  let after;
  try {
    after = await stat(absolute);
  } catch {
    return { kind: 'gone' };
  }
  if (after.size !== seen.size || after.mtimeMs !== seen.mtimeMs) {
    return { kind: 'writing', size: after.size, mtimeMs: after.mtimeMs, reason: stillBeingWritten.changing };
  }
  const sha256 = hash.digest('hex');
  const first = new Uint8Array(head.subarray(0, headLength));
  // Only a file whose first bytes are right is asked for its end: one that is not what its
  // name says is refused by core's type check, with that sentence.
  const extension = documentExtensionOf(name);
  const container = extension ? documentContainers[extension] : null;
  if (container && documentContainerOf(first) === container) {
    const missing = documentIncompleteness(container, { size: after.size, tail });
    if (missing) {
      return now - after.mtimeMs >= incompleteAfterMs
        ? { kind: 'incomplete', sha256, head: first, reason: `${missing} Nothing changed it for a while: if it is finished, save or scan it again.` }
        : { kind: 'writing', size: after.size, mtimeMs: after.mtimeMs, reason: `Still being written: ${missing}` };
    }
  }
  return { kind: 'finished', sha256, head: first };
}

/** A file read once finished: its size and mtime as they stood still, and what the read found. */
export type FileRead = Extract<FileCheck, { kind: 'finished' | 'incomplete' }>;

/**
 * Waiting until a file is stable: the folder's candidates, each read once its wait is over and
 * waited for afresh while it is still being written, which is said once per wait.
 */
export class Settling {
  readonly candidates: Candidates;
  private readonly announced = new Set<string>();

  constructor(
    private readonly folder: string,
    windowMs: number,
    private readonly options: {
      newFileWaitMs?: number;
      /** How long after its last change a document whose end is missing is damaged, not being written. */
      incompleteAfterMs: number;
      /** Said once per wait, when a check has found the file still being written. */
      onStillWriting: (relative: string, reason: string) => void;
    },
  ) {
    this.candidates = new Candidates(windowMs, { newFileWaitMs: options.newFileWaitMs });
  }

  /** Size and mtime as seen now (Candidates.observe): true when the file moved. */
  observe(relative: string, size: number, mtimeMs: number): boolean {
    return this.candidates.observe(relative, size, mtimeMs);
  }

  /** Says once per wait that a file is still being written, when a check has found it so. */
  announceWriting(relative: string): void {
    const reason = this.candidates.get(relative)?.writing;
    if (!reason || this.announced.has(relative)) return;
    this.announced.add(relative);
    this.options.onStillWriting(relative, reason);
  }

  /** The file is gone: it waits no more. */
  forget(relative: string): void {
    this.candidates.delete(relative);
    this.announced.delete(relative);
  }

  /**
   * Reads the files whose size and mtime stood still for their wait: `onRead` for each one
   * finished (or whose end has long been missing); the others wait again. True when one was read.
   */
  async settle(onRead: (relative: string, candidate: Candidate, read: FileRead) => void): Promise<boolean> {
    let changed = false;
    for (const [relative, candidate] of this.candidates.due()) {
      const absolute = path.join(this.folder, relative);
      let check;
      try {
        check = await checkFinished(absolute, path.posix.basename(relative).normalize('NFC'), candidate, this.options.incompleteAfterMs);
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
      this.announced.delete(relative);
      onRead(relative, candidate, check);
      changed = true;
    }
    return changed;
  }
}
