import type { ManifestFile } from '@everest/core/domain';

/** The manifest a folder must hold (the desktop app reads the same name: DECISIONS.md). */
export const manifestFileName = 'manifest.csv';

/** What the administrator chose: the manifest and the documents, however they were picked. */
export interface BulkSelection {
  manifest: File | null;
  files: File[];
}

/** Files an operating system leaves in folders, never meant as documents. */
function isSystemFile(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('.') || lower === 'thumbs.db' || lower === 'desktop.ini';
}

function pathOf(file: File): string {
  return file.webkitRelativePath || file.name;
}

/**
 * A folder picked whole that is not in the quarter layout (bulk-selection.ts reads that one): its
 * manifest.csv (the one nearest the top, whatever its letter case) and the files in that
 * manifest's folder and below it.
 */
export function splitFolder(files: readonly File[]): BulkSelection {
  const depth = (file: File) => pathOf(file).split('/').length;
  const manifests = files.filter((file) => file.name.toLowerCase() === manifestFileName).sort((a, b) => depth(a) - depth(b));
  const manifest = manifests[0] ?? null;
  if (!manifest) return { manifest: null, files: files.filter((file) => !isSystemFile(file.name)) };
  const folder = pathOf(manifest).slice(0, -manifest.name.length);
  return {
    manifest,
    files: files.filter((file) => file !== manifest && !isSystemFile(file.name) && pathOf(file).startsWith(folder)),
  };
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function sha256Hex(data: BufferSource | string): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return hex(await crypto.subtle.digest('SHA-256', bytes));
}

/**
 * The batch's Idempotency-Key: the manifest's hash and every sent file's name and hash, in name
 * order. The same batch sent again (a retry after a lost answer) carries the same key, so the
 * server answers the first result instead of reading it again.
 */
export async function batchKey(manifestBytes: ArrayBuffer, files: readonly ManifestFile[]): Promise<string> {
  const lines = files
    .map((file) => `${file.name}\u0000${file.sha256 ?? ''}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256Hex(`${await sha256Hex(manifestBytes)}\n${lines.join('\n')}`);
}
