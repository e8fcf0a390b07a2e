// Seeing files: a full walk of the watched folder, the truth that events only hint at.

import { readdir } from 'node:fs/promises';
import path from 'node:path';
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
