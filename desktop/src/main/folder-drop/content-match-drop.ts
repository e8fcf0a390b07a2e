// Match by content in the Folder Drop: the renderer reads the PDFs of an investors folder without
// a manifest.csv, applies core's rule and shows staff the review (the browser's own code); main
// only hands it the PDFs' bytes, and then writes what staff confirmed as a quarter folder of the
// app's own, which the drop's plan and upload take as they take any dropped folder.

import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isIgnoredName, manifestFilename, planFolder, type FolderEntry, type FolderPlan } from '@everest/core/domain';
import { pdfLimits } from '@everest/web/pdf';
import { takeContentFolders } from '../../sync/content-match';
import type { ContentDropFolder, ContentMatchedBatch, DroppedFile, FolderDropPlan } from '../../shared/api';

export const contentDropMessages = {
  notBelow: 'Match by content reads only the files of the dropped folder.',
  notPdf: (file: string) => `${file} is not a PDF: Match by content reads PDFs only.`,
  tooLarge: (file: string) => `${file} is larger than ${Math.round(pdfLimits.combined.maxBytes / 1024 / 1024)} MB, more than a K-1 batch needs.`,
  badName: (name: string) => `"${name}" is not a file name.`,
} as const;

const investorsFolderName = 'investors';

/**
 * The investors folders of a drop that have no manifest.csv: those of its plan, or, when the
 * dropped folder is itself an investors folder inside a quarter folder and has no manifest,
 * that folder ('' below the drop), with its quarter folder's period.
 */
export function contentFoldersOf(folder: string, plan: FolderPlan, entries: readonly FolderEntry[]): ContentDropFolder[] {
  const asFolders = (planned: FolderPlan, rootName: string, unprefix = (p: string) => p) =>
    takeContentFolders({ ...planned }, rootName).map((c) => ({
      folder: unprefix(c.folder),
      year: c.year,
      quarter: c.quarter,
      files: c.files.map((f) => unprefix(f.entry.path)),
    }));
  const found = asFolders(plan, path.basename(folder));
  if (found.length > 0 || path.basename(folder).toLowerCase() !== investorsFolderName) return found;
  if (entries.some((e) => e.path.toLowerCase() === manifestFilename)) return [];
  // The dropped investors folder, planned as its quarter folder would plan it.
  const prefix = `${investorsFolderName}/`;
  const asQuarter = planFolder({
    rootName: path.basename(path.dirname(folder)),
    entries: entries.map((e) => ({ ...e, path: `${prefix}${e.path}` })),
    propertyNames: [],
  });
  const strip = (p: string) => (p === investorsFolderName ? '' : p.startsWith(prefix) ? p.slice(prefix.length) : p);
  return asFolders(asQuarter, path.basename(path.dirname(folder)), strip);
}

/** The period of the quarter folder holding `folder` (itself, or the one its investors folder is in), by core's layout; null when none does. */
function periodOf(folder: string): Pick<ContentDropFolder, 'year' | 'quarter'> | null {
  const quarterFolder = path.basename(folder).toLowerCase() === investorsFolderName ? path.dirname(folder) : folder;
  const [manifest] = planFolder({
    rootName: path.basename(quarterFolder),
    entries: [
      { path: `${investorsFolderName}/${manifestFilename}`, size: 0 },
      { path: `${investorsFolderName}/k1.pdf`, size: 1 },
    ],
    propertyNames: [],
  }).manifests;
  return manifest ? { year: manifest.year, quarter: manifest.quarter } : null;
}

/**
 * A combined PDF dropped on its own: nothing to publish as it is, and Match by content offered
 * for it, filed under the quarter folder it is in, or the quarter staff choose.
 */
export function singlePdfPlan(file: string): FolderDropPlan {
  const folder = path.dirname(file);
  const period = periodOf(folder);
  return {
    folder,
    propertyDocuments: [],
    personalDocuments: [],
    manifests: [],
    unmatched: [],
    ignored: [],
    contentFolders: [{ folder: '', year: period?.year ?? null, quarter: period?.quarter ?? null, files: [path.basename(file)] }],
  };
}

/** A path below `folder`, or null when it would leave it. */
function below(folder: string, relative: string): string | null {
  const resolved = path.resolve(folder, relative);
  const inside = path.relative(folder, resolved);
  return inside && !inside.startsWith('..') && !path.isAbsolute(inside) ? resolved : null;
}

/** The PDFs Match by content reads: only files below the dropped folder, PDFs only, within the combined PDF's size limit. */
export async function readDroppedPdfs(folder: string, paths: readonly string[]): Promise<DroppedFile[]> {
  const files: DroppedFile[] = [];
  for (const relative of paths) {
    const file = below(folder, relative);
    if (!file) throw new Error(contentDropMessages.notBelow);
    if (!relative.toLowerCase().endsWith('.pdf')) throw new Error(contentDropMessages.notPdf(relative));
    if ((await stat(file)).size > pdfLimits.combined.maxBytes) throw new Error(contentDropMessages.tooLarge(relative));
    files.push({ path: relative, bytes: new Uint8Array(await readFile(file)) });
  }
  return files;
}

/** A document's name as the manifest names it: one file name, no folder, nothing the file system reads otherwise. */
function isPlainName(name: string): boolean {
  return name.length > 0 && name === path.basename(name) && !name.includes('\\') && name !== '.' && name !== '..' && !isIgnoredName(name);
}

/**
 * Writes a confirmed batch as `<directory>/<id>/<year>-<quarter>/investors/` (its manifest.csv
 * and documents) and answers the quarter folder's path. The folder stays while its upload may
 * be resumed; staging another batch removes the earlier ones.
 */
export async function stageContentMatch(directory: string, batch: ContentMatchedBatch): Promise<string> {
  for (const { name } of batch.documents) {
    if (!isPlainName(name) || name.toLowerCase() === manifestFilename) throw new Error(contentDropMessages.badName(name));
  }
  await mkdir(directory, { recursive: true });
  for (const earlier of await readdir(directory)) await rm(path.join(directory, earlier), { recursive: true, force: true });
  const quarterFolder = path.join(directory, randomUUID(), `${batch.year}-${batch.quarter}`);
  const investors = path.join(quarterFolder, investorsFolderName);
  await mkdir(investors, { recursive: true });
  await writeFile(path.join(investors, manifestFilename), batch.manifest, 'utf8');
  for (const { name, bytes } of batch.documents) await writeFile(path.join(investors, name), bytes);
  return quarterFolder;
}
