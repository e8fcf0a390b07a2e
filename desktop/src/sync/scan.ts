// Seeing files: a full walk of the watched folder, the truth that events only hint at, and the
// watcher whose events are those hints.

import type { Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isIgnoredName } from '@everest/core/domain';
import { isLockFileName } from './folder-lock';

/** A relative path as the ledger and core spell it: forward slashes. */
export const posix = (relative: string) => relative.split(path.sep).join('/');

/** Names the sync never looks at: the system and editor files core ignores, and its own lock. */
export function isSkippedName(name: string): boolean {
  return isIgnoredName(name) || isLockFileName(name);
}

export interface FolderContents {
  /** Every file below the folder, relative, outside skipped names and the folders they name. */
  files: string[];
  /** System and editor files (Thumbs.db, .DS_Store, ~$lock files…) and ignored folders: skipped by rule. */
  skipped: string[];
}

/** Walks the folder (or one of its subfolders); an unreadable folder reads as empty. */
export async function walkFolder(root: string, relative = ''): Promise<FolderContents> {
  const found: FolderContents = { files: [], skipped: [] };
  let items;
  try {
    items = await readdir(path.join(root, relative), { withFileTypes: true });
  } catch {
    return found;
  }
  for (const item of items) {
    const child = relative ? `${relative}/${item.name}` : item.name;
    if (isLockFileName(item.name)) continue;
    if (isIgnoredName(item.name)) {
      if (item.isFile() || item.isDirectory()) found.skipped.push(child);
      continue;
    }
    if (item.isDirectory()) {
      const below = await walkFolder(root, child);
      found.files.push(...below.files);
      found.skipped.push(...below.skipped);
    } else if (item.isFile()) found.files.push(child);
  }
  return found;
}

/** What the watcher tells, each path relative to the watched folder (forward slashes). */
export interface FolderEvents {
  /** A file was added or changed (with its stats, when the watcher has them). */
  seen(relative: string, stats?: Stats): void;
  folderAdded(relative: string): void;
  gone(relative: string): void;
  error(error: unknown): void;
}

/**
 * Watches the folder for changes (chokidar), skipped names aside: returned at once, armed once
 * it says 'ready'. `poll`: poll the file system instead of listening to its events (network shares).
 */
export function watchFolder(folder: string, options: { poll?: boolean; pollIntervalMs?: number }, on: FolderEvents): FSWatcher {
  const watcher = watch(folder, {
    ignoreInitial: true,
    ignored: (file) => isSkippedName(path.basename(file)),
    usePolling: options.poll ?? false,
    interval: options.pollIntervalMs ?? 2_000,
    binaryInterval: options.pollIntervalMs ?? 2_000,
    // The stability window does this job, for watched and scanned files alike.
    awaitWriteFinish: false,
  });
  const relativeOf = (file: string) => posix(path.relative(folder, file));
  const seen = (file: string, stats?: Stats) => on.seen(relativeOf(file), stats);
  watcher.on('add', seen).on('change', seen);
  watcher.on('addDir', (dir) => on.folderAdded(relativeOf(dir)));
  watcher.on('unlink', (file) => on.gone(relativeOf(file)));
  watcher.on('error', (error) => on.error(error));
  return watcher;
}
