import type { ManifestFile } from '@everest/core/domain';
import type { RefusedFile } from './bulk-plan';
import { checkDocumentFile } from './document-rules';

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
 * A folder picked whole: its manifest.csv (the one nearest the top, whatever its letter case) and
 * the files in that manifest's folder and below it. Picking the whole quarter folder then reads
 * `investors/` only, and never the property documents beside it.
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

/** The files worth sending, and those refused by type or size before any byte travels. */
export function screenFiles(files: readonly File[]): { accepted: File[]; refused: RefusedFile[] } {
  const accepted: File[] = [];
  const refused: RefusedFile[] = [];
  for (const file of files) {
    const problem = checkDocumentFile(file);
    if (problem) refused.push({ name: file.name, reason: problem.description });
    else accepted.push(file);
  }
  return { accepted, refused };
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function sha256Hex(data: BufferSource | string): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return hex(await crypto.subtle.digest('SHA-256', bytes));
}

/**
 * Hashes the files, a few at a time (each at most 10 MB, so at most `parallel` of them are in
 * memory at once; reading many small files one by one waits on each read), reporting the fraction
 * of bytes hashed so far. The answer keeps the files' order.
 */
export async function hashFiles(
  files: readonly File[],
  onProgress?: (fraction: number) => void,
  parallel = 4,
): Promise<ManifestFile[]> {
  const total = files.reduce((sum, file) => sum + file.size, 0);
  let done = 0;
  const hashed: ManifestFile[] = new Array<ManifestFile>(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const index = next;
      next += 1;
      const file = files[index] as File;
      hashed[index] = { name: file.name, size: file.size, sha256: await sha256Hex(await file.arrayBuffer()) };
      done += file.size;
      onProgress?.(total === 0 ? 1 : done / total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, files.length) }, worker));
  return hashed;
}

/**
 * The manifest's text: UTF-8, or Windows-1252 when it is not valid UTF-8 (Excel's "CSV" on a
 * Western Windows), as the server reads it.
 */
export function decodeManifest(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
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
