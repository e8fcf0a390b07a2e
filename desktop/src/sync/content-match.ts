// Matching K-1s by content (`sync --match-content`): an investors folder without a manifest.csv
// is read where it is, each PDF's text by the reader pool, and core's rule (reviewRows) says whom
// each file, or each section of a combined PDF, belongs to. Nobody is there to confirm, so only
// the rows the rule matched are published; they become a manifest of their own (reviewManifest),
// written with their files beside the ledger, and that manifest takes the path every manifest
// takes (ManifestBatches: identity, period, digest, corrections). Every other row is written as
// a draft manifest (draftManifest) beside the ledger for staff to complete and drop back as
// manifest.csv. Nothing is written into the watched folder, and no line said here quotes a K-1:
// only file names, pages, e-mails and core's sentences.

import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  documentHeadBytes,
  draftManifest,
  folderPlanMessages,
  investorIdentifiers,
  planFolder,
  reviewFileNames,
  reviewManifest,
  reviewRows,
  type FolderPlan,
  type PlannedManifest,
  type ReviewInvestor,
  type ReviewRow,
} from '@everest/core/domain';
import { pdfLimits, pdfReadingMessages, type PdfText } from '@everest/web/pdf';
import type { SyncContext, SyncEvent } from './context';
import { recordFailure } from './failed-attempt';
import { isSignInRefusal, isUnreachable } from './failures';
import { Ledger, type LedgerEntry, type PublishedPersonalDocument } from './ledger';
import { batchSignatureOf, ManifestBatches } from './manifest-batch';
import { contentMatchMessages } from './content-match-messages';
import type { PdfReaderPool } from './pdf-reader-pool';


/** An investors folder without a manifest.csv: what content matching reads. */
export interface ContentFolder {
  /** As a manifest's folder ('2025-Q4/investors', or 'investors' in a quarter root). */
  folder: string;
  year: PlannedManifest['year'];
  quarter: PlannedManifest['quarter'];
  files: PlannedManifest['files'];
}

/**
 * Takes the files that would need a manifest out of the plan (they are not "No manifest.csv"
 * while they are matched by content) and answers their folders, as core plans a manifest's
 * folder: the plan is asked again with a manifest in each such folder.
 */
export function takeContentFolders(plan: FolderPlan, rootName: string): ContentFolder[] {
  const waiting = plan.unmatched.filter((u) => u.reason === folderPlanMessages.noManifest);
  if (waiting.length === 0) return [];
  plan.unmatched = plan.unmatched.filter((u) => u.reason !== folderPlanMessages.noManifest);
  const folders = new Set(waiting.map((u) => path.posix.dirname(u.entry.path.split(path.sep).join('/'))));
  const asked = planFolder({
    rootName,
    entries: [...waiting.map((u) => u.entry), ...[...folders].map((folder) => ({ path: `${folder}/manifest.csv`, size: 0 }))],
    propertyNames: [],
  });
  return asked.manifests.map(({ folder, year, quarter, files }) => ({ folder, year, quarter, files }));
}

/** The signature of a folder's files: their names and contents. */
export function contentSignatureOf(folder: ContentFolder): string {
  return createHash('sha256')
    .update([folder.folder, ...folder.files.map((f) => `${f.name}\u0000${f.entry.sha256 ?? ''}`).sort()].join('\n'))
    .digest('hex');
}

/**
 * The limits a PDF is read under: one partner's K-1 first (100 pages, 10 MB, 15 s), and a file
 * past those as a combined PDF (10,000 pages, 200 MB, 2 minutes). A single K-1 that hangs then
 * costs 15 s, not 2 minutes; a combined PDF costs a second opening, which stops at its page count.
 */
export async function readForMatching(readers: PdfReaderPool, bytes: Uint8Array): Promise<PdfText> {
  const first = bytes.byteLength > pdfLimits.single.maxBytes ? null : await readers.read(bytes, pdfLimits.single);
  if (first && (first.kind === 'text' || !pastSingleLimits(first.reason))) return first;
  return readers.read(bytes, pdfLimits.combined);
}

function pastSingleLimits(reason: string): boolean {
  const pages = Number(/\d+/.exec(reason)?.[0]);
  return reason === pdfReadingMessages.tooManyPages(pages, pdfLimits.single.maxPages) || reason === pdfReadingMessages.tooLarge(pdfLimits.single.maxBytes);
}

const pagesOf = (row: ReviewRow) => (row.pages === null ? '' : row.pages.length > 1 ? `pages ${row.pages[0]}–${row.pages.at(-1)}` : `page ${row.pages[0]}`);

/** A folder's rows, without the snippets: the sync shows nobody a K-1's words. */
type Rows = ReviewRow[];

export class ContentMatches {
  private readonly ledger: Promise<Ledger>;
  /**
   * Rows by the investor list and content (sha256): a folder read again after one file changed
   * reads only that file, and all of them again once an investor or identifier changed.
   */
  private readonly rowsBySha = new Map<string, Rows>();
  private readonly heads = new Map<string, Uint8Array>();
  private readonly drafts = new Map<string, string>();

  /**
   * `workRoot`: a folder beside the ledger (never in the watched folder) that holds, per
   * investors folder, the manifest that is sent with its files (publish/) and the draft (draft/).
   */
  constructor(
    private readonly ctx: SyncContext,
    private readonly readers: PdfReaderPool,
    readonly workRoot: string,
  ) {
    this.ledger = Ledger.open(`${workRoot}.json`);
  }

  /** The manifest drafts written, by investors folder. */
  draftFiles(): string[] {
    return [...this.drafts.values()];
  }

  /** Whether the folder has changed since its files were matched, or has an attempt due. */
  wantsWork(folder: ContentFolder): boolean {
    const signature = contentSignatureOf(folder);
    return folder.files.some((f) => {
      const entry = this.ctx.ledger.get(f.entry.path);
      if (!entry) return false;
      if (entry.contentMatched !== signature) return true;
      if (entry.state === 'waiting' || entry.state === 'publishing') return true;
      return entry.state === 'failed' && entry.nextRetryAt !== null && entry.nextRetryAt <= Date.now() && entry.attempts < this.ctx.maxAttempts;
    });
  }

  /** Reads, matches and publishes one investors folder; every file of it ends in one state. */
  async publish(folder: ContentFolder): Promise<void> {
    const signature = contentSignatureOf(folder);
    const ledger = await this.ledger;
    let investors: ReviewInvestor[];
    let index;
    let indexKey: string;
    try {
      if (!this.ctx.portal.contentMatchingInvestors) throw new Error(contentMatchMessages.noInvestorList);
      const listed = await this.ctx.portal.contentMatchingInvestors();
      this.ctx.reached();
      investors = listed.map(({ id, email, name, entity }) => ({ id, email, name, entity }));
      index = investorIdentifiers(listed);
      indexKey = createHash('sha256').update(JSON.stringify(listed)).digest('hex');
    } catch (error) {
      this.failedFolder(folder, error);
      return;
    }
    const byId = new Map(investors.map((i) => [i.id, i]));

    // Each file's bytes and rows; a file changed since it settled is left for the next plan.
    const sources = new Map<string, { entry: LedgerEntry; bytes: Uint8Array; rows: Rows }>();
    const reads = folder.files.map(async (file) => {
      const entry = this.ctx.ledger.get(file.entry.path);
      if (!entry || entry.sha256 === null) return;
      const bytes = new Uint8Array(await readFile(path.join(this.ctx.folder, file.entry.path)));
      if (createHash('sha256').update(bytes).digest('hex') !== entry.sha256) return this.ctx.wake();
      let rows = this.rowsBySha.get(`${indexKey}:${entry.sha256}`);
      if (!rows) {
        rows = file.name.toLowerCase().endsWith('.pdf')
          ? reviewRows(file.name, await readForMatching(this.readers, bytes), index)
          : reviewRows(file.name, { kind: 'unreadable', reason: contentMatchMessages.notPdf }, index);
        rows = rows.map((row) => ({ ...row, snippet: null }));
        this.rowsBySha.set(`${indexKey}:${entry.sha256}`, rows);
      }
      sources.set(file.name, { entry, bytes, rows });
    });
    await Promise.all(reads);
    if (this.ctx.stopped()) return;

    // Every combined PDF cut into its sections in the pool, as reading is: the matched ones are
    // sent, the others go beside the draft. A PDF that cannot be cut needs a person whole.
    const parts = new Map<string, Uint8Array>();
    const cutFailed = new Map<string, string>();
    for (const source of sources.values()) {
      const sections = source.rows.filter((row) => row.pages !== null);
      if (sections.length === 0) continue;
      const cut = await this.readers.split(source.bytes, sections.map((row) => row.pages!));
      sections.forEach((row, i) => (cut.kind === 'unreadable' ? cutFailed.set(row.key, cut.reason) : parts.set(row.key, cut.parts[i]!)));
    }
    const rows = folder.files
      .flatMap((f) => sources.get(f.name)?.rows ?? [])
      .map((row) => (cutFailed.has(row.key) ? { ...row, investorId: null, matched: false, reason: cutFailed.get(row.key)! } : row));
    const manifest = reviewManifest(rows, byId);
    const chosen = new Set(manifest.files.map((f) => f.row.key));
    const draftRows = rows.filter((row) => !chosen.has(row.key) && !row.excluded);
    const draftNames = reviewFileNames(draftRows, byId);

    const publishDir = `${folder.folder}/publish`;
    const draftDir = `${folder.folder}/draft`;
    const written = new Map<string, Uint8Array>();
    for (const { row, fileName } of manifest.files) written.set(`${publishDir}/${fileName}`, row.pages === null ? sources.get(row.source)!.bytes : parts.get(row.key)!);
    if (manifest.files.length > 0) written.set(`${publishDir}/manifest.csv`, new TextEncoder().encode(manifest.csvText));
    for (const row of draftRows) {
      const part = parts.get(row.key);
      if (part) written.set(`${draftDir}/${draftNames.get(row.key)!}`, part);
    }
    const draftFile = draftRows.length > 0 ? path.join(this.workRoot, ...draftDir.split('/'), 'manifest.csv') : null;
    if (draftFile) {
      written.set(`${draftDir}/manifest.csv`, new TextEncoder().encode(draftManifest(draftRows, byId)));
      this.drafts.set(folder.folder, draftFile);
    } else this.drafts.delete(folder.folder);
    await this.writeFolder(ledger, [publishDir, draftDir], written);

    // The matched rows through the path every manifest takes.
    if (manifest.files.length > 0) {
      const entryOf = (relative: string) => ({ path: relative, size: written.get(relative)!.byteLength, sha256: ledger.get(relative)!.sha256 ?? undefined });
      const planned: PlannedManifest = {
        entry: entryOf(`${publishDir}/manifest.csv`),
        folder: publishDir,
        year: folder.year,
        quarter: folder.quarter,
        files: manifest.files.map((f) => ({ entry: entryOf(`${publishDir}/${f.fileName}`), name: f.fileName })),
      };
      await this.send(ledger, planned);
    }
    if (this.ctx.stopped()) return;

    // Each file of the folder in one state, from its rows and what the batch did with them.
    for (const [name, source] of sources) {
      const sent = manifest.files.filter((f) => f.row.source === name).map((f) => ({ ...f, entry: ledger.get(`${publishDir}/${f.fileName}`)! }));
      const needing = draftRows.filter((row) => row.source === name);
      this.settleSource(source.entry, signature, sent, needing, draftFile, ledger.get(`${publishDir}/manifest.csv`));
    }
    await ledger.save();
  }

  /** The folder's generated files written, those no longer made removed; each recorded in the batch's ledger. */
  private async writeFolder(ledger: Ledger, dirs: string[], written: Map<string, Uint8Array>): Promise<void> {
    for (const dir of dirs) {
      const absolute = path.join(this.workRoot, ...dir.split('/'));
      await mkdir(absolute, { recursive: true });
      for (const name of await readdir(absolute)) {
        if (!written.has(`${dir}/${name}`)) await rm(path.join(absolute, name), { force: true });
      }
    }
    for (const entry of ledger.all()) {
      if (!written.has(entry.path) && dirs.some((dir) => entry.path.startsWith(`${dir}/`)) && !entry.missing) ledger.update(entry.path, { missing: true });
    }
    for (const [relative, bytes] of written) {
      const absolute = path.join(this.workRoot, ...relative.split('/'));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const known = ledger.get(relative);
      if (!known || known.sha256 !== sha256 || known.missing) await writeFile(absolute, bytes);
      ledger.recordRead(relative, bytes.byteLength, Date.now(), sha256);
      this.heads.set(relative, bytes.subarray(0, documentHeadBytes));
    }
  }

  /** Sends the batch as the Decider sends a manifest's, in a context whose folder is the work folder. */
  private async send(ledger: Ledger, planned: PlannedManifest): Promise<void> {
    const signature = batchSignatureOf(planned);
    const current = ledger.get(planned.entry.path)!;
    if (current.kind === 'manifest' && current.batchSignature === signature && current.state === 'published') return;
    if (current.kind !== 'manifest' || (current.batchSignature !== signature && current.state !== 'publishing' && current.state !== 'failed')) {
      ledger.update(current.path, { kind: 'manifest', batchSignature: null, state: 'waiting', attempts: 0, nextRetryAt: null, lastError: null, rowProblems: null });
      for (const file of planned.files) {
        const entry = ledger.get(file.entry.path)!;
        if (entry.state !== 'published' || entry.publishedSha256 !== entry.sha256) ledger.update(entry.path, { kind: 'personal', state: 'waiting', lastError: null });
      }
    }
    const wantsWork = (entry: LedgerEntry) => {
      if (entry.state === 'published' && entry.publishedSha256 === entry.sha256) return false;
      if (entry.state === 'needs-attention') return false;
      return !(entry.state === 'failed' && (entry.attempts >= this.ctx.maxAttempts || (entry.nextRetryAt ?? 0) > Date.now()));
    };
    await new ManifestBatches(this.batchContext(ledger)).publish(planned, signature, wantsWork);
    await ledger.save();
  }

  /**
   * The batch's context: the work folder and its ledger; a failure of the portal (away, the
   * sign-in refused) is the sync's own, as it is for any manifest.
   */
  private batchContext(ledger: Ledger): SyncContext {
    const ctx = this.ctx;
    const batch: SyncContext = {
      folder: this.workRoot,
      portal: ctx.portal,
      ledger,
      notifies: ctx.notifies,
      maxAttempts: ctx.maxAttempts,
      backoff: ctx.backoff,
      stopped: () => ctx.stopped(),
      setState: (relative, change) => void ledger.update(relative, change),
      emit: (event: SyncEvent) => ctx.emit(event),
      wake: () => ctx.wake(),
      failed: (relative, error, attempts) => {
        if (isUnreachable(error) || isSignInRefusal(error)) ctx.failed('.', error, attempts);
        recordFailure({ ...batch, emit: () => undefined }, relative, error, attempts);
      },
      markMissing: () => undefined,
      reached: () => ctx.reached(),
      headOf: (relative) => this.heads.get(relative),
    };
    return batch;
  }

  /** One source file's state from its rows: published, waiting, failed, or needing a person with every reason. */
  private settleSource(
    entry: LedgerEntry,
    signature: string,
    sent: { row: ReviewRow; fileName: string; entry: LedgerEntry }[],
    needing: ReviewRow[],
    draftFile: string | null,
    manifest: LedgerEntry | undefined,
  ): void {
    const where = (row: ReviewRow) => (row.pages === null ? '' : `${pagesOf(row)}: `);
    const refused = sent.filter((s) => s.entry.state === 'needs-attention' || (s.entry.state === 'failed' && s.entry.nextRetryAt === null));
    const published = sent.filter((s) => s.entry.state === 'published');
    const base = { kind: 'personal' as const, contentMatched: signature };
    if (needing.length > 0 || refused.length > 0) {
      const reasons = [
        ...needing.map((row) => `${where(row)}${row.reason ?? contentMatchMessages.notPdf}`),
        ...refused.map((s) => `${where(s.row)}${s.entry.lastError ?? 'refused by the portal'}`),
      ];
      const done = published.map((s) => `${s.row.pages === null ? 'published' : `${pagesOf(s.row)} published`} for ${s.entry.personalDocuments?.[0]?.email ?? 'its investor'}`);
      const draft = draftFile ? [contentMatchMessages.draftAt(draftFile)] : [];
      if (draftFile && needing.some((row) => row.pages !== null)) draft.push(contentMatchMessages.sectionsAt(path.dirname(draftFile)));
      const message = [...reasons, ...done, ...draft].join('; ');
      this.ctx.setState(entry.path, { ...base, state: 'needs-attention', lastError: message, nextRetryAt: null, ...this.publishedFields(entry, published) }, message);
      return;
    }
    if (sent.some((s) => s.entry.state === 'failed')) {
      const failing = manifest?.state === 'failed' ? manifest : sent.find((s) => s.entry.state === 'failed')!.entry;
      this.ctx.setState(entry.path, { ...base, state: 'failed', lastError: failing.lastError, nextRetryAt: failing.nextRetryAt, attempts: failing.attempts }, failing.lastError ?? 'Failed');
      return;
    }
    if (sent.some((s) => s.entry.state !== 'published')) {
      // Waiting for the portal (away) or for the batch's next attempt.
      this.ctx.ledger.update(entry.path, { ...base, state: 'waiting', lastError: manifest?.lastError ?? null });
      return;
    }
    const documents = published.flatMap((s) => s.entry.personalDocuments ?? []);
    const already = published.every((s) => s.entry.alreadyOnPortal === true);
    const said = documents.map((d) => `"${d.title}" for ${d.email}, document ${d.documentId}`).join('; ');
    this.ctx.setState(
      entry.path,
      { ...base, state: 'published', lastError: null, nextRetryAt: null, attempts: 0, alreadyOnPortal: already, ...this.publishedFields(entry, published) },
      `Matched by content: ${already ? 'already on the portal as' : 'published as'} ${said}`,
    );
  }

  private publishedFields(entry: LedgerEntry, published: { entry: LedgerEntry }[]): Partial<LedgerEntry> {
    if (published.length === 0) return {};
    const personalDocuments: PublishedPersonalDocument[] = published.flatMap((s) => s.entry.personalDocuments ?? []);
    const times = published.map((s) => s.entry.publishedAt ?? 0);
    return {
      documentId: personalDocuments[0]?.documentId ?? null,
      publishedSha256: entry.sha256,
      personalDocuments,
      publishedAt: Math.max(...times) || null,
    };
  }

  /** The investor list could not be had: the folder's files wait, fail or stop the sync as any request's would. */
  private failedFolder(folder: ContentFolder, error: unknown): void {
    if (isUnreachable(error) || isSignInRefusal(error)) {
      this.ctx.failed('.', error, 0);
      return;
    }
    for (const file of folder.files) {
      const entry = this.ctx.ledger.get(file.entry.path);
      if (entry) this.ctx.failed(file.entry.path, error, entry.attempts + 1);
    }
  }
}
