// The quarter folder layout (DECISIONS.md), shared by the desktop's folder drop, its watched
// folder and the /instructions page:
//
//   <year>-Q<n>/properties/<Property name or General>/<file>   → a property document
//   <year>-Q<n>/investors/manifest.csv + the files it names     → personal documents
//
// One pure function turns a folder's relative paths into what publishing it would do. It reads
// no file: the manifest's rows are planned later by planBulkManifest, once its text is read.

import type { Quarter } from './enums';
import { currentYear, firstDocumentYear } from './dates-and-periods';
import { defaultPropertyGroup } from './document-files';
import { maxManifestCsvBytes } from './csv-columns';
import { isIgnoredName, splitPath } from './folder-paths';
import { documentRefusal, filenameTitleRefusal, originalOfTwins, publicationKey, publishingMessages, titleFromFilename } from './publishing';

/** A file below the dropped or watched folder, its path relative to that folder. */
export interface FolderEntry {
  /** Relative path with '/' (or '\\') separators, as the file system spells it (macOS: NFD). */
  path: string;
  size: number;
  sha256?: string;
  /**
   * The file's first bytes (documentHeadBytes of them), when the caller read them: the file is
   * then refused unless its content is what its extension promises, as the server refuses it.
   */
  head?: Uint8Array;
}

export interface FolderPlanInput {
  /**
   * The name of the dropped or watched folder itself: when it is a quarter folder
   * ('2025-Q3'), the paths start at its 'properties' and 'investors' folders.
   */
  rootName?: string;
  entries: readonly FolderEntry[];
  /** The live list of property names; 'General' is always known. */
  propertyNames: readonly string[];
  now?: Date;
}

export interface PlannedPropertyDocument {
  entry: FolderEntry;
  /** The file name in NFC, as it is sent. */
  filename: string;
  /** The file name without its extension (titleFromFilename). */
  title: string;
  /** The property's name as the server spells it, or 'General'. */
  property: string;
  year: number;
  quarter: Quarter;
}

export interface PlannedManifest {
  /** The manifest.csv entry. */
  entry: FolderEntry;
  /** The investors folder's relative path ('2025-Q3/investors', or 'investors' in a quarter root). */
  folder: string;
  year: number;
  quarter: Quarter;
  /** The document files beside it, each with its NFC name, for planBulkManifest. */
  files: { entry: FolderEntry; name: string }[];
}

export interface UnmatchedEntry {
  entry: FolderEntry;
  reason: string;
}

/** A property file with the same content as another one for the same property: not published. */
export interface DuplicateEntry {
  entry: FolderEntry;
  /** The path of the original (originalOfTwins), which is planned instead. */
  of: string;
}

export interface FolderPlan {
  /** One per file; the same content under two different properties is two documents. */
  propertyDocuments: PlannedPropertyDocument[];
  /** Twins of a planned property document (same content, same property): published once. */
  duplicates: DuplicateEntry[];
  manifests: PlannedManifest[];
  unmatched: UnmatchedEntry[];
  /** Paths left out on purpose: system and editor files (.DS_Store, ~$lock files…). */
  ignored: string[];
}

export const folderPlanMessages = {
  notInQuarter:
    'Not in a quarter folder: files go in <year>-Q<n>/properties/<Property name or General>/ or <year>-Q<n>/investors/.',
  yearOutOfRange: (year: number, last: number) => `The year ${year} is outside ${firstDocumentYear} to ${last}.`,
  noSuchQuarter: (quarter: number) => `There is no quarter Q${quarter}: quarters are Q1 to Q4.`,
  fileInQuarterFolder: 'Files directly in a quarter folder are not read: put them in properties/<Property name or General>/ or investors/.',
  unknownQuarterFolder: (name: string) => `Unknown folder "${name}" in a quarter folder: only properties and investors are read.`,
  fileInPropertiesFolder: `Files directly in properties/ are not read: put them in a folder named after their property, or ${defaultPropertyGroup}.`,
  unknownProperty: (name: string) =>
    `There is no property named "${name}": name the folder exactly as the property is listed, or ${defaultPropertyGroup}.`,
  tooDeep: 'Folders inside a property or investors folder are not read: move the file up one level.',
  wrongType: publishingMessages.wrongType,
  empty: publishingMessages.empty,
  tooLarge: publishingMessages.tooLarge,
  manifestTooLarge: 'The manifest is larger than 5 MB.',
  noManifest:
    "No manifest.csv beside this file: personal documents are published by the manifest of their investors folder, which names each file's investor (see the portal's /instructions page).",
} as const;

export { isIgnoredName, isIgnoredPath, syncLockFileName } from './folder-paths';

export const manifestFilename = 'manifest.csv';

const quarterFolderPattern = /^(\d{4})-q(\d+)$/i;

/** Compared as people read names: NFC (macOS spells 'é' as 'e' + accent), any case, trimmed. */
function nameKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase();
}

type QuarterMatch = { ok: true; year: number; quarter: Quarter } | { ok: false; reason: string } | null;

/** The year and quarter of a folder name, a reason when it is a quarter folder out of range, null when it is not one. */
function quarterOf(name: string, now: Date): QuarterMatch {
  const match = quarterFolderPattern.exec(name.normalize('NFC').trim());
  if (!match) return null;
  const year = Number(match[1]);
  const quarter = Number(match[2]);
  const last = currentYear(now);
  if (year < firstDocumentYear || year > last) return { ok: false, reason: folderPlanMessages.yearOutOfRange(year, last) };
  if (quarter < 1 || quarter > 4) return { ok: false, reason: folderPlanMessages.noSuchQuarter(quarter) };
  return { ok: true, year, quarter: `Q${quarter}` as Quarter };
}

/** Plans the publication of a folder in the quarter layout; every entry ends in exactly one list. */
export function planFolder(input: FolderPlanInput): FolderPlan {
  const now = input.now ?? new Date();
  const properties = new Map<string, string>();
  for (const name of input.propertyNames) properties.set(nameKey(name), name.normalize('NFC').trim());
  properties.set(nameKey(defaultPropertyGroup), defaultPropertyGroup);

  const rootQuarter = input.rootName === undefined ? null : quarterOf(input.rootName, now);
  const plan: FolderPlan = { propertyDocuments: [], duplicates: [], manifests: [], unmatched: [], ignored: [] };
  const unmatched = (entry: FolderEntry, reason: string) => plan.unmatched.push({ entry, reason });

  // Investors folders: their manifest and their files, gathered first, paired at the end.
  const investorFolders = new Map<string, { year: number; quarter: Quarter; manifest?: FolderEntry; files: FolderEntry[] }>();

  const entries = [...input.entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const entry of entries) {
    const parts = splitPath(entry.path);
    if (parts.length === 0) continue;
    if (parts.some(isIgnoredName)) {
      plan.ignored.push(entry.path);
      continue;
    }

    // The quarter, from the root's name or from the first folder.
    let quarter: QuarterMatch;
    let rest: string[];
    let prefix: string[];
    if (rootQuarter) {
      quarter = rootQuarter;
      rest = parts;
      prefix = [];
    } else {
      quarter = parts.length > 1 ? quarterOf(parts[0]!, now) : null;
      rest = parts.slice(1);
      prefix = parts.slice(0, 1);
    }
    if (!quarter) {
      unmatched(entry, folderPlanMessages.notInQuarter);
      continue;
    }
    if (!quarter.ok) {
      unmatched(entry, quarter.reason);
      continue;
    }
    if (rest.length === 1) {
      unmatched(entry, folderPlanMessages.fileInQuarterFolder);
      continue;
    }
    const section = nameKey(rest[0]!);
    const filename = rest[rest.length - 1]!.normalize('NFC');

    if (section === 'properties') {
      if (rest.length === 2) {
        unmatched(entry, folderPlanMessages.fileInPropertiesFolder);
        continue;
      }
      const folderName = rest[1]!.normalize('NFC');
      const property = properties.get(nameKey(folderName));
      if (!property) {
        unmatched(entry, folderPlanMessages.unknownProperty(folderName.trim()));
        continue;
      }
      if (rest.length > 3) {
        unmatched(entry, folderPlanMessages.tooDeep);
        continue;
      }
      const refusal = documentRefusal({ name: filename, size: entry.size, head: entry.head }) ?? filenameTitleRefusal(filename);
      if (refusal) {
        unmatched(entry, refusal);
        continue;
      }
      plan.propertyDocuments.push({
        entry,
        filename,
        title: titleFromFilename(filename),
        property,
        year: quarter.year,
        quarter: quarter.quarter,
      });
      continue;
    }

    if (section === 'investors') {
      if (rest.length > 2) {
        unmatched(entry, folderPlanMessages.tooDeep);
        continue;
      }
      const folder = [...prefix, rest[0]!].join('/');
      const investors = investorFolders.get(folder) ?? { year: quarter.year, quarter: quarter.quarter, files: [] };
      investorFolders.set(folder, investors);
      if (nameKey(filename) === manifestFilename) {
        if (entry.size > maxManifestCsvBytes) unmatched(entry, folderPlanMessages.manifestTooLarge);
        else investors.manifest = entry;
        continue;
      }
      const refusal = documentRefusal({ name: filename, size: entry.size, head: entry.head });
      if (refusal) {
        unmatched(entry, refusal);
        continue;
      }
      investors.files.push(entry);
      continue;
    }

    unmatched(entry, folderPlanMessages.unknownQuarterFolder(rest[0]!.normalize('NFC')));
  }

  keepOriginalsOfTwins(plan);

  for (const [folder, investors] of investorFolders) {
    if (!investors.manifest) {
      for (const entry of investors.files) unmatched(entry, folderPlanMessages.noManifest);
      continue;
    }
    plan.manifests.push({
      entry: investors.manifest,
      folder,
      year: investors.year,
      quarter: investors.quarter,
      files: investors.files.map((entry) => ({ entry, name: splitPath(entry.path).at(-1)!.normalize('NFC') })),
    });
  }
  return plan;
}

/**
 * Property files with the same content for the same property, in any quarter folder, are one
 * publication (the server answers the second 'already published'): the original by
 * originalOfTwins stays planned, the others move to duplicates. The same content for two
 * properties is two publications and stays planned twice. Files without a hash cannot be compared.
 */
function keepOriginalsOfTwins(plan: FolderPlan): void {
  const twins = new Map<string, PlannedPropertyDocument[]>();
  for (const document of plan.propertyDocuments) {
    if (!document.entry.sha256) continue;
    const key = publicationKey({ kind: 'property', property: document.property }, document.entry.sha256);
    twins.set(key, [...(twins.get(key) ?? []), document]);
  }
  const copies = new Map<PlannedPropertyDocument, string>();
  for (const group of twins.values()) {
    if (group.length < 2) continue;
    const originalName = originalOfTwins(group.map((d) => d.filename));
    // Documents are in path order, so the same name in two quarter folders keeps the first path.
    const original = group.find((d) => d.filename === originalName)!;
    for (const document of group) if (document !== original) copies.set(document, original.entry.path);
  }
  if (copies.size === 0) return;
  plan.duplicates = plan.propertyDocuments.flatMap((document) => {
    const of = copies.get(document);
    return of === undefined ? [] : [{ entry: document.entry, of }];
  });
  plan.propertyDocuments = plan.propertyDocuments.filter((document) => !copies.has(document));
}
