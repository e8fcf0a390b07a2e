// What the administrator chose in the bulk upload, read as the server will read it:
// a quarter folder in the layout of DECISIONS.md (properties/<name>/… and investors/manifest.csv
// with its files), or a manifest and its documents. Every file's first bytes are read for the
// type check by content, and each file the portal would take is hashed.
import {
  documentHeadBytes,
  documentRefusal,
  folderPlanMessages,
  isIgnoredPath,
  planFolder,
  type FolderEntry,
  type FolderPlan,
  type ManifestFile,
} from '@everest/core/domain';
import { sha256Hex } from './bulk-batch';

/** The path of a file below the chosen folder, the folder's own name left out. */
export interface FolderFile {
  file: File;
  /** 'properties/Heartland Plaza/Q3 Report.pdf' when '2026-Q3' was chosen. */
  path: string;
}

/** A chosen folder: its name and its files with their paths below it. */
export interface ChosenFolder {
  rootName: string;
  files: FolderFile[];
}

/** A folder picker's files (webkitRelativePath '2026-Q3/properties/…') as the folder and its paths. */
export function chosenFolder(files: readonly File[]): ChosenFolder {
  const first = files[0]?.webkitRelativePath ?? '';
  const rootName = first.includes('/') ? first.slice(0, first.indexOf('/')) : '';
  return {
    rootName,
    files: files.map((file) => {
      const relative = file.webkitRelativePath || file.name;
      return { file, path: rootName && relative.startsWith(`${rootName}/`) ? relative.slice(rootName.length + 1) : relative };
    }),
  };
}

/**
 * The quarter layout's plan of a folder from its paths and sizes only (nothing read yet): null
 * when nothing in it is in that layout, so that a folder holding only a manifest and its files
 * is read as before (the manifest nearest the top).
 */
export function quarterLayout(folder: ChosenFolder, propertyNames: readonly string[], now?: Date): FolderPlan | null {
  const plan = planFolder({
    rootName: folder.rootName || undefined,
    entries: folder.files.map(({ path, file }) => ({ path, size: file.size })),
    propertyNames,
    now,
  });
  // An investors folder without its manifest is in the layout too: its preview says what is missing.
  const withoutManifest = plan.unmatched.some((u) => u.reason === folderPlanMessages.noManifest);
  return plan.propertyDocuments.length > 0 || plan.manifests.length > 0 || plan.duplicates.length > 0 || withoutManifest ? plan : null;
}

/** A file as read for the dry run: its first bytes' verdict and, when the portal would take it, its hash. */
export interface ReadFile {
  file: File;
  path: string;
  /** Why the portal would refuse it (type by content, size, empty); null when it would take it. */
  refusal: string | null;
  head: Uint8Array;
  sha256?: string;
}

async function headOf(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, documentHeadBytes).arrayBuffer());
}

/**
 * Reads the files a few at a time (each at most 10 MB: at most `parallel` are in memory at
 * once): the first bytes of every file, the whole of those the portal would take, hashed. The
 * progress is the share of the bytes to hash that are done. The answer keeps the order.
 */
export async function readFiles(
  files: readonly FolderFile[],
  onProgress?: (fraction: number) => void,
  parallel = 4,
): Promise<ReadFile[]> {
  const read: ReadFile[] = new Array<ReadFile>(files.length);
  const verdicts = await Promise.all(
    files.map(async ({ file, path }) => {
      const head = await headOf(file);
      return { file, path, head, refusal: documentRefusal({ name: file.name, size: file.size, head }) };
    }),
  );
  const total = verdicts.reduce((sum, v) => sum + (v.refusal ? 0 : v.file.size), 0);
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < verdicts.length) {
      const index = next;
      next += 1;
      const verdict = verdicts[index]!;
      if (verdict.refusal) {
        read[index] = verdict;
        continue;
      }
      read[index] = { ...verdict, sha256: await sha256Hex(await verdict.file.arrayBuffer()) };
      done += verdict.file.size;
      onProgress?.(total === 0 ? 1 : done / total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, verdicts.length) }, worker));
  onProgress?.(1);
  return read;
}

/** The folder entries for planFolder: every read file with its size, hash and first bytes. */
export function folderEntries(read: readonly ReadFile[]): FolderEntry[] {
  return read.map((r) => ({ path: r.path, size: r.file.size, head: r.head, ...(r.sha256 ? { sha256: r.sha256 } : {}) }));
}

/** A read file as planBulkManifest knows it: refused files keep their reason, so their row gives it (case 6). */
export function manifestFile(read: ReadFile, name = read.file.name): ManifestFile {
  return {
    name: name.normalize('NFC'),
    size: read.file.size,
    ...(read.sha256 ? { sha256: read.sha256 } : {}),
    ...(read.refusal ? { refusal: read.refusal } : {}),
  };
}

/** The folder of a relative path ('' at the top). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** Files never meant as documents (system and editor files), by core's rule. */
export function isLeftOut(path: string): boolean {
  return isIgnoredPath(path);
}
