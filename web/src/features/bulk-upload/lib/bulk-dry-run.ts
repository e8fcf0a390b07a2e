// The bulk upload's dry run over both halves of a quarter folder: core's planFolder
// for the layout, the twins and the refusals, the property documents looked up among those
// already published, and each manifest planned by planBulkManifest with its folder's period,
// decoded as the server decodes it. Nothing here sends a document.
import type { BulkUploadPreviewAnswer, DocumentRecipientsAnswer, PropertyDocument } from '@everest/core/contract';
import {
  decodeCsvBytes,
  destinationKey,
  documentIdentityKey,
  hasNoReader,
  manifestEmails,
  planFolder,
  publishingMessages,
  type BulkManifestPlan,
  type CsvEncoding,
  type Period,
  type Quarter,
} from '@everest/core/domain';
import { batchKey, sha256Hex } from './bulk-batch';
import { planBatch } from './bulk-plan';
import { folderEntries, folderOf, manifestFile, type ChosenFolder, type ReadFile } from './bulk-selection';

/** What the dry run asks of the server: read routes only. */
export interface DryRunServer {
  /** bulk-upload-preview, in parts (the manifest's e-mails and the files' hashes). */
  preview(emails: string[], sha256: string[]): Promise<BulkUploadPreviewAnswer>;
  /** Every property document (admin documents), to find those already published. */
  documents(): Promise<readonly PropertyDocument[]>;
  /** The hash of a published document's file, for a candidate of the same property and size. */
  documentSha256(documentId: number): Promise<string>;
  /** Who can read a new document of this property (document-recipients): nobody warns. */
  recipients(property: string): Promise<DocumentRecipientsAnswer>;
}

export interface PlannedProperty {
  /** The path below the chosen folder. */
  path: string;
  file: File;
  filename: string;
  title: string;
  property: string;
  year: number;
  quarter: Quarter;
  sha256: string;
  outcome: 'publish' | 'already-published';
  /** The document of that property that already has this content (any title, any period). */
  existing: PropertyDocument | null;
  /**
   * The document of that property this file is a new version of (core's isSameDocument: the
   * same title and period, another content): published as its correction, not a second document.
   */
  corrects: PropertyDocument | null;
  /** Only administrators could read it (core's hasNoReader): the preview warns. */
  noReader: boolean;
}

export interface PlannedManifest {
  /** The manifest's path as shown ('2026-Q3/investors/manifest.csv', or its name when picked alone). */
  path: string;
  manifest: File;
  csvText: string;
  encoding: CsvEncoding;
  /** The batch's period: the quarter folder's, or the form's; null for none (document_date, else the upload date). */
  period: Period | null;
  plan: BulkManifestPlan;
  /** The files sent with it: those beside it that the portal would take. */
  files: File[];
  /** Files beside it the browser will not send, and why (a row naming one gives the reason). */
  refused: { name: string; reason: string }[];
  /** The batch's Idempotency-Key: its manifest, files and period. */
  key: string;
  users: BulkUploadPreviewAnswer['users'];
}

export interface BatchDryRun {
  layout: 'quarter' | 'manifest';
  /** The chosen folder's name, for a quarter folder. */
  folderName: string | null;
  propertyDocuments: PlannedProperty[];
  manifests: PlannedManifest[];
  /** Files that will not be sent, with the reason: wrong type or size, twins, outside the layout. */
  notSent: { path: string; reason: string }[];
  /** A manifest that cannot be published at all ('Line 2: a quoted field is not closed.'): nothing may be confirmed. */
  error: string | null;
  /** Documents that will be published: 'Will be published: N' means N. */
  publishing: number;
  /** Per dry run: with a document's destination and hash, each property upload's Idempotency-Key. */
  nonce: string;
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

async function planManifest(
  input: { path: string; manifest: File; files: readonly ReadFile[]; names?: ReadonlyMap<ReadFile, string>; period: Period | null; now?: Date },
  server: DryRunServer,
): Promise<PlannedManifest> {
  const bytes = await input.manifest.arrayBuffer();
  const { text, encoding } = decodeCsvBytes(new Uint8Array(bytes));
  const files = input.files.map((r) => manifestFile(r, input.names?.get(r)));
  const emails = manifestEmails(text);
  const hashes = [...new Set(files.flatMap((f) => (f.sha256 ? [f.sha256] : [])))];
  const known = emails.length === 0 ? { users: [] } : await server.preview(emails, hashes);
  const plan = planBatch(text, files, known, { encoding, period: input.period, ...(input.now ? { now: input.now } : {}) });
  const sent = input.files.filter((r) => !r.refusal);
  const period = input.period ? `${input.period.year}-${input.period.quarter}` : '';
  return {
    path: input.path,
    manifest: input.manifest,
    csvText: text,
    encoding,
    period: input.period,
    plan,
    files: sent.map((r) => r.file),
    refused: input.files.flatMap((r) => (r.refusal ? [{ name: r.file.name, reason: r.refusal }] : [])),
    key: await sha256Hex(`${await batchKey(bytes, files.filter((f) => !f.refusal))}\n${period}`),
    users: known.users,
  };
}

/** The documents of the same property and size: only those can hold the same content. */
async function alreadyPublished(
  documents: readonly { property: string; entry: { size: number; sha256?: string } }[],
  published: readonly PropertyDocument[],
  server: DryRunServer,
): Promise<Map<string, PropertyDocument>> {
  const found = new Map<string, PropertyDocument>();
  if (documents.length === 0) return found;
  const hashes = new Map<number, Promise<string>>();
  for (const document of documents) {
    const sha256 = document.entry.sha256;
    if (!sha256) continue;
    const candidates = published.filter(
      (d) => d.fileExists && d.fileSize === document.entry.size && d.property.toLowerCase() === document.property.toLowerCase(),
    );
    for (const candidate of candidates) {
      if (!hashes.has(candidate.id)) hashes.set(candidate.id, server.documentSha256(candidate.id));
      if ((await hashes.get(candidate.id)) === sha256) {
        found.set(`${document.property.toLowerCase()}\u0000${sha256}`, candidate);
        break;
      }
    }
  }
  return found;
}

function newNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function finish(run: Omit<BatchDryRun, 'error' | 'publishing' | 'nonce'>): BatchDryRun {
  const failing = run.manifests.find((m) => m.plan.error);
  const error = failing?.plan.error ? (run.layout === 'quarter' ? `${failing.path}: ${failing.plan.error}` : failing.plan.error) : null;
  const publishing =
    run.propertyDocuments.filter((d) => d.outcome === 'publish').length + run.manifests.reduce((n, m) => n + m.plan.counts.publish, 0);
  return { ...run, error, publishing, nonce: newNonce() };
}

/**
 * A quarter folder (or a folder of quarters): its property documents and its investors'
 * manifests, planned by core as the desktop plans them, each manifest with its folder's period.
 */
export async function dryRunQuarterFolder(
  folder: ChosenFolder,
  read: readonly ReadFile[],
  propertyNames: readonly string[],
  server: DryRunServer,
  now?: Date,
): Promise<BatchDryRun> {
  const plan = planFolder({ rootName: folder.rootName || undefined, entries: folderEntries(read), propertyNames, ...(now ? { now } : {}) });
  const byPath = new Map(read.map((r) => [r.path, r]));
  const shown = (path: string) => (folder.rootName ? `${folder.rootName}/${path}` : path);

  const published = plan.propertyDocuments.length === 0 ? [] : await server.documents();
  const found = await alreadyPublished(plan.propertyDocuments, published, server);
  // The property's document each file would be a new version of (core's identity rule), by key:
  // one look-up per file, whatever the number of published documents.
  const identityOf = (property: string, d: { title: string; year: number; quarter: Quarter }) =>
    documentIdentityKey(destinationKey({ kind: 'property', property }), { title: d.title, category: null, year: d.year, quarter: d.quarter });
  const byIdentity = new Map<string, PropertyDocument>();
  for (const p of published) {
    const key = identityOf(p.property, p);
    if (!byIdentity.has(key)) byIdentity.set(key, p);
  }
  const unread = new Map(
    await Promise.all([...new Set(plan.propertyDocuments.map((d) => d.property))].map(async (p) => [p, hasNoReader(await server.recipients(p))] as const)),
  );
  const propertyDocuments: PlannedProperty[] = plan.propertyDocuments.map((d) => {
    const sha256 = d.entry.sha256 ?? '';
    const existing = found.get(`${d.property.toLowerCase()}\u0000${sha256}`) ?? null;
    const corrects = existing ? null : (byIdentity.get(identityOf(d.property, d)) ?? null);
    return {
      path: d.entry.path,
      file: byPath.get(d.entry.path)!.file,
      filename: d.filename,
      title: d.title,
      property: d.property,
      year: d.year,
      quarter: d.quarter,
      sha256,
      outcome: existing ? 'already-published' : 'publish',
      existing,
      corrects,
      noReader: unread.get(d.property) ?? false,
    };
  });

  // The files beside each manifest, refused ones too: a row naming one says why it is not sent.
  const manifests: PlannedManifest[] = [];
  for (const m of plan.manifests) {
    const beside = read.filter((r) => r.path !== m.entry.path && folderOf(r.path) === folderOf(m.entry.path) && !plan.ignored.includes(r.path));
    const names = new Map(beside.map((r) => [r, baseName(r.path)]));
    manifests.push(
      await planManifest(
        {
          path: shown(m.entry.path),
          manifest: byPath.get(m.entry.path)!.file,
          files: beside,
          names,
          period: { year: m.year, quarter: m.quarter },
          ...(now ? { now } : {}),
        },
        server,
      ),
    );
  }

  // In path order, as a file manager lists the folder.
  const notSent = [
    ...plan.duplicates.map((d) => ({ path: shown(d.entry.path), reason: publishingMessages.twinForProperty(baseName(d.of)) })),
    ...plan.unmatched.map((u) => ({ path: shown(u.entry.path), reason: u.reason })),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return finish({ layout: 'quarter', folderName: folder.rootName || null, propertyDocuments, manifests, notSent });
}

/** A manifest and its documents (two pickers, or a folder outside the quarter layout), with the form's period. */
export async function dryRunManifest(
  manifest: File,
  documents: readonly ReadFile[],
  period: Period | null,
  server: DryRunServer,
  now?: Date,
): Promise<BatchDryRun> {
  const planned = await planManifest({ path: manifest.name, manifest, files: documents, period, ...(now ? { now } : {}) }, server);
  const notSent = planned.refused.map((r) => ({ path: r.name, reason: r.reason }));
  return finish({ layout: 'manifest', folderName: null, propertyDocuments: [], manifests: [planned], notSent });
}

/**
 * How many people the batch's digest would e-mail: the distinct active
 * investors of the personal rows, and each property's readers. One digest per reader covers
 * both halves, so when more than one group is e-mailed the sum is only an upper bound (someone
 * may read two of the properties, or also get a personal document): `exact` says which.
 */
export async function countRecipients(
  run: BatchDryRun,
  recipients: (property: string) => Promise<DocumentRecipientsAnswer>,
): Promise<{ people: number; exact: boolean; groups: { label: string; people: number }[] }> {
  const investors = new Set<string>();
  for (const m of run.manifests) {
    const active = new Map(m.users.map((u) => [u.email.toLowerCase(), u.active !== false]));
    for (const row of m.plan.rows) if (row.outcome === 'publish' && active.get(row.email.toLowerCase()) !== false) investors.add(row.email.toLowerCase());
  }
  const properties = [...new Set(run.propertyDocuments.filter((d) => d.outcome === 'publish').map((d) => d.property))];
  const counts = await Promise.all(properties.map(async (property) => ({ label: `${property}: its readers`, people: (await recipients(property)).recipients })));
  const groups = [...counts, { label: "Investors' documents: their investors", people: investors.size }].filter((g) => g.people > 0);
  return { people: groups.reduce((sum, g) => sum + g.people, 0), exact: groups.length <= 1, groups };
}
