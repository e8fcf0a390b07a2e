import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  decodeCsvBytes,
  destinationKey,
  documentHeadBytes,
  documentRefusal,
  isIgnoredName,
  manifestEmails,
  manifestKnowledgeOf,
  maxDocumentBytes,
  maxManifestCsvBytes,
  planBulkManifest,
  planFolder,
  publishingMessages,
  type FolderEntry,
  type ManifestFile,
} from '@everest/core/domain';
import type { Portal } from '../../sync/portal';
import { noReaderWarning } from '../../sync/report';
import type { FolderDropPlan } from '../../shared/api';
import { contentFoldersOf, singlePdfPlan } from './content-match-drop';

export const dropMessages = {
  notAFolder: 'Drop a folder (a quarter folder such as 2025-Q3, or a folder holding several) or a combined PDF of K-1s.',
  notNamedByManifest: 'No row of manifest.csv names this file.',
} as const;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The first bytes of a file, which the server checks its type by (documentHeadBytes of them). */
async function headOf(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(documentHeadBytes);
    const { bytesRead } = await handle.read(buffer, 0, documentHeadBytes, 0);
    return new Uint8Array(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * Every file below `root` with its relative path ('/' separators), size, content hash and first
 * bytes. Ignored names are listed without being read or walked into; files too large for the
 * portal are not read (the plan refuses them by their size).
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
      for (let entry = queue.shift(); entry; entry = queue.shift()) {
        const file = path.join(root, entry.path);
        entry.sha256 = await sha256Of(file);
        entry.head = await headOf(file);
      }
    }),
  );
  return { entries, ignored };
}

/**
 * What dropping `folder` would publish, asked of nobody but the portal's read routes, with the
 * rules the server applies, so that "Will be published: 12" means 12: the layout,
 * each file's type by its first bytes, its size and its title by core's planFolder, which also
 * keeps one of two twins for a property; each manifest, decoded as the user import decodes a
 * CSV, by planBulkManifest with the server's preview and its quarter folder's period; and each
 * property document looked up on the portal by its content and property, whatever its title or
 * quarter, as upload-document answers alreadyPublished.
 */
export async function planFolderDrop(folder: string, portal: Portal): Promise<FolderDropPlan> {
  const dropped = await stat(folder).catch(() => null);
  if (dropped?.isFile() && folder.toLowerCase().endsWith('.pdf')) return singlePdfPlan(folder);
  if (!dropped?.isDirectory()) throw new Error(dropMessages.notAFolder);
  const { entries, ignored } = await listFolder(folder);
  const [propertyNames, serverDocuments] = await Promise.all([portal.propertyNames(), portal.propertyDocuments()]);
  const plan = planFolder({ rootName: path.basename(folder), entries, propertyNames });

  // The portal's documents' hashes, each downloaded at most once: the list carries none.
  const hashes = new Map<number, Promise<string>>();
  const hashOf = (id: number) => hashes.get(id) ?? hashes.set(id, portal.documentSha256(id)).get(id)!;
  const propertyDocuments: FolderDropPlan['propertyDocuments'] = [];
  // Each property's readers, asked once, as the panel asks before an upload.
  const warnings = new Map<string, Promise<string | null>>();
  const warningOf = (property: string) =>
    warnings.get(property) ?? warnings.set(property, portal.documentRecipients(property).then((answer) => noReaderWarning(property, answer))).get(property)!;
  for (const document of plan.propertyDocuments) {
    const destination = destinationKey({ kind: 'property', property: document.property });
    const candidates = serverDocuments.filter(
      (d) => destinationKey({ kind: 'property', property: d.property }) === destination && d.fileSize === document.entry.size,
    );
    let alreadyPublished = false;
    for (const candidate of candidates) {
      alreadyPublished = (await hashOf(candidate.id)) === document.entry.sha256;
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
      noReader: alreadyPublished ? null : await warningOf(document.property),
    });
  }

  const unmatched = [
    ...plan.unmatched.map(({ entry, reason }) => ({ path: entry.path, reason })),
    ...plan.duplicates.map(({ entry, of }) => ({ path: entry.path, reason: publishingMessages.twinForProperty(of) })),
  ];
  const personalDocuments: FolderDropPlan['personalDocuments'] = [];
  const manifests: FolderDropPlan['manifests'] = [];
  /** Files a manifest row names: their row says what becomes of them. */
  const named = new Set<string>();
  for (const manifest of plan.manifests) {
    const { text: csvText, encoding } = decodeCsvBytes(await readFile(path.join(folder, manifest.entry.path)));
    manifests.push({ path: manifest.entry.path, encoding });
    // Every file beside the manifest, refused ones too: a row naming one gives its reason.
    const beside = entries.filter((e) => path.posix.dirname(e.path) === manifest.folder && e !== manifest.entry);
    const files: (ManifestFile & { path: string })[] = beside.map((entry) => {
      const name = path.posix.basename(entry.path).normalize('NFC');
      const refusal = documentRefusal({ name, size: entry.size, head: entry.head });
      return { name, size: entry.size, sha256: entry.sha256, path: entry.path, ...(refusal ? { refusal } : {}) };
    });
    const known = await portal.bulkPreview(
      manifestEmails(csvText),
      files.flatMap((f) => (f.sha256 && !f.refusal ? [f.sha256] : [])),
    );
    const rows = planBulkManifest({
      csvText,
      encoding,
      files,
      ...manifestKnowledgeOf(known.users),
      period: { year: manifest.year, quarter: manifest.quarter },
    });
    if (rows.error) {
      unmatched.push({ path: manifest.entry.path, reason: rows.error });
      continue;
    }
    for (const row of rows.rows) {
      const document = row.outcome === 'publish' || row.outcome === 'already-published' ? row : null;
      const file = files.find((f) => f.name === row.filename);
      if (file) named.add(file.path);
      personalDocuments.push({
        manifest: manifest.entry.path,
        row: row.row,
        filename: row.filename,
        email: document?.email ?? null,
        title: document?.title ?? null,
        outcome: document ? document.outcome : 'refused',
        reason: document || !('error' in row) ? null : row.error,
        year: document?.year ?? null,
        quarter: document?.quarter ?? null,
      });
    }
    for (const name of rows.unprocessed) {
      const file = files.find((f) => f.name === name);
      // A refused file no row names is already listed with its own reason.
      if (!file?.refusal) unmatched.push({ path: `${manifest.folder}/${name}`, reason: dropMessages.notNamedByManifest });
    }
  }
  return {
    folder,
    propertyDocuments,
    personalDocuments,
    manifests,
    unmatched: unmatched.filter((u) => !named.has(u.path)),
    ignored: [...ignored, ...plan.ignored],
    contentFolders: contentFoldersOf(folder, plan, entries),
  };
}
