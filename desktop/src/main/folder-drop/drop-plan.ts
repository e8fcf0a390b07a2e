import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  isIgnoredName,
  manifestEmails,
  maxDocumentBytes,
  maxManifestCsvBytes,
  planBulkManifest,
  planFolder,
  type FolderEntry,
} from '@everest/core/domain';
import type { Portal } from '../../sync/portal';
import type { FolderDropPlan } from '../../shared/api';

export const dropMessages = {
  notAFolder: 'Drop a folder: a quarter folder (2025-Q3) or a folder holding several.',
} as const;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Every file below `root` with its relative path ('/' separators), size and content hash.
 * Ignored names are listed without being read or walked into; files too large for the portal
 * are not hashed (they will be refused by the plan anyway).
 */
export async function listFolder(root: string): Promise<{ entries: FolderEntry[]; ignored: string[] }> {
  const entries: FolderEntry[] = [];
  const ignored: string[] = [];
  async function walk(relative: string): Promise<void> {
    for (const item of await readdir(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${item.name}` : item.name;
      if (isIgnoredName(item.name)) ignored.push(child);
      else if (item.isDirectory()) await walk(child);
      else if (item.isFile()) entries.push({ path: child, size: (await stat(path.join(root, child))).size });
    }
  }
  await walk('');
  // Four at a time: at most four files are being read at once.
  const queue = entries.filter((e) => e.size > 0 && e.size <= Math.max(maxDocumentBytes, maxManifestCsvBytes));
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let entry = queue.shift(); entry; entry = queue.shift()) entry.sha256 = await sha256Of(path.join(root, entry.path));
    }),
  );
  return { entries, ignored };
}

/**
 * What dropping `folder` would publish, asked of nobody but the portal's read routes: the
 * layout by core's planFolder, each manifest by planBulkManifest with the server's preview, and
 * each property document looked up on the portal by its fields and, when they match, its hash.
 */
export async function planFolderDrop(folder: string, portal: Portal): Promise<FolderDropPlan> {
  if (!(await stat(folder).catch(() => null))?.isDirectory()) throw new Error(dropMessages.notAFolder);
  const { entries, ignored } = await listFolder(folder);
  const [propertyNames, serverDocuments] = await Promise.all([portal.propertyNames(), portal.propertyDocuments()]);
  const plan = planFolder({ rootName: path.basename(folder), entries, propertyNames });

  const propertyDocuments: FolderDropPlan['propertyDocuments'] = [];
  for (const document of plan.propertyDocuments) {
    const candidates = serverDocuments.filter(
      (d) =>
        d.title.toLowerCase() === document.title.toLowerCase() &&
        d.property.toLowerCase() === document.property.toLowerCase() &&
        d.year === document.year &&
        d.quarter === document.quarter &&
        d.fileSize === document.entry.size,
    );
    let alreadyPublished = false;
    for (const candidate of candidates) {
      if ((await portal.documentSha256(candidate.id)) === document.entry.sha256) alreadyPublished = true;
      if (alreadyPublished) break;
    }
    propertyDocuments.push({
      path: document.entry.path,
      title: document.title,
      property: document.property,
      year: document.year,
      quarter: document.quarter,
      size: document.entry.size,
      alreadyPublished,
    });
  }

  const personalDocuments: FolderDropPlan['personalDocuments'] = [];
  const unmatched = plan.unmatched.map(({ entry, reason }) => ({ path: entry.path, reason }));
  for (const manifest of plan.manifests) {
    const csvText = await readFile(path.join(folder, manifest.entry.path), 'utf8');
    const files = manifest.files.map(({ entry, name }) => ({ name, size: entry.size, sha256: entry.sha256 }));
    const known = await portal.bulkPreview(
      manifestEmails(csvText),
      files.flatMap((f) => (f.sha256 ? [f.sha256] : [])),
    );
    const rows = planBulkManifest({
      csvText,
      files,
      usersByEmail: new Map(known.users.map((u) => [u.email.toLowerCase(), u.userId])),
      publishedHashes: new Map(known.users.map((u) => [u.userId, new Set(u.publishedSha256)])),
      publishedTitles: new Map(known.users.map((u) => [u.userId, new Set(u.titles)])),
    });
    if (rows.error) unmatched.push({ path: manifest.entry.path, reason: rows.error });
    for (const row of rows.rows) {
      const document = row.outcome === 'publish' || row.outcome === 'already-published' ? row : null;
      personalDocuments.push({
        manifest: manifest.entry.path,
        row: row.row,
        filename: row.filename,
        email: document?.email ?? null,
        title: document?.title ?? null,
        outcome: row.outcome === 'publish' || row.outcome === 'already-published' ? row.outcome : 'refused',
        reason: 'error' in row ? row.error : null,
      });
    }
    for (const name of rows.unprocessed) {
      unmatched.push({ path: `${manifest.folder}/${name}`, reason: 'No row of manifest.csv names this file.' });
    }
  }
  return { folder, propertyDocuments, personalDocuments, unmatched, ignored: [...ignored, ...plan.ignored] };
}
