// Personal documents: a manifest and the files beside it published as one batch, planned with
// the server's knowledge of its investors and the files' hashes, sent under an Idempotency-Key;
// a file changed in place replaces its documents. Every row that publishes nothing is reported
// with its line, in the summary as on the manifest, so that no row goes missing unexplained.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeCsvBytes, documentRefusal, manifestEmails, manifestKnowledgeOf, planBulkManifest, type PlannedManifest } from '@everest/core/domain';
import { contentMatchMessages } from './content-match-messages';
import type { SyncContext } from './context';
import { isRefusal, isSignInRefusal, isUnreachable, messageOf } from './failures';
import type { LedgerEntry, PendingBatch, PublishedPersonalDocument } from './ledger';
import { PersonalReplacements, type PersonalReplacement } from './personal-replacement';

/**
 * A manifest cell, always quoted, so that commas, quotes and line breaks survive. Not core's
 * csvCell: this manifest goes to the server, not to a spreadsheet, and must carry a title that
 * starts with '=' exactly as the administrator wrote it.
 */
function manifestCell(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

/** A row of a manifest that publishes nothing, and why. */
export interface RowProblem {
  row: number;
  reason: string;
}

/** The signature of a batch: its manifest and its files' contents. */
export function batchSignatureOf(manifest: PlannedManifest): string {
  return createHash('sha256')
    .update([manifest.entry.sha256, ...manifest.files.map((f) => `${f.name}\u0000${f.entry.sha256}`).sort()].join('\n'))
    .digest('hex');
}

export class ManifestBatches {
  private readonly replacements: PersonalReplacements;

  constructor(private readonly ctx: SyncContext) {
    this.replacements = new PersonalReplacements(ctx);
  }

  /**
   * A manifest and its folder, as one batch: planned here with the server's knowledge of the
   * manifest's investors and the files' hashes, then sent with only the rows that publish, under
   * an Idempotency-Key of its content, so a retried batch is answered, not published again. The
   * request is written down (`pendingBatch`) before it is sent: after a lost answer or a crash
   * the very same request is sent again rather than planned afresh (which would find its rows
   * already published and lose what the answer said: the documents' ids and owed e-mails).
   */
  async publish(manifest: PlannedManifest, signature: string, wantsWork: (entry: LedgerEntry) => boolean): Promise<void> {
    const manifestPath = manifest.entry.path;
    const entry = this.ctx.ledger.get(manifestPath);
    if (!entry || entry.missing || !wantsWork(entry)) return;
    const attempts = entry.attempts + 1;
    const files = manifest.files.map((f) => ({ name: f.name, size: f.entry.size, sha256: f.entry.sha256, path: f.entry.path }));
    const pathOf = new Map(files.map((f) => [f.name, f.path]));
    try {
      let batch = entry.pendingBatch?.signature === signature ? entry.pendingBatch : null;
      if (!batch) {
        const planned = await this.planBatch(manifest, signature, files);
        if (!planned || this.ctx.stopped()) return;
        if (!planned.batch) {
          this.manifestDone(manifestPath, signature, planned.problems, planned.rowProblems);
          return;
        }
        batch = planned.batch;
      }
      await this.sendBatch(manifest, signature, attempts, batch, pathOf);
    } catch (error) {
      // The batch's files share its fate: waiting for its next attempt (also while the portal
      // is away or the sync stops on a refused sign-in), or failed with it.
      const waits = isUnreachable(error) || isSignInRefusal(error);
      const gaveUp = !waits && (isRefusal(error) || attempts >= this.ctx.maxAttempts);
      for (const file of files) {
        const current = this.ctx.ledger.get(file.path);
        if (this.ctx.stopped() || (current?.state !== 'publishing' && current?.state !== 'waiting')) continue;
        this.ctx.ledger.update(file.path, gaveUp ? { state: 'failed', lastError: `The batch of manifest.csv failed: ${messageOf(error)}`, nextRetryAt: null } : { state: 'waiting' });
      }
      // A batch the portal refused is planned afresh once the folder changes.
      if (isRefusal(error) && !this.ctx.stopped()) this.ctx.ledger.update(manifestPath, { pendingBatch: null });
      this.ctx.failed(manifestPath, error, attempts);
    }
  }

  /**
   * The batch is done. `rowProblems`: the rows that publish nothing and whose reason no file of
   * the folder shows (a file not found, a row beside a good one for the same file): reported as
   * the manifest's own items needing attention.
   */
  private manifestDone(manifestPath: string, signature: string, problems: string[], rowProblems: RowProblem[]): void {
    this.ctx.setState(
      manifestPath,
      {
        state: 'published',
        batchSignature: signature,
        pendingBatch: null,
        attempts: 0,
        nextRetryAt: null,
        lastError: problems.length > 0 ? problems.join('; ') : null,
        rowProblems: rowProblems.length > 0 ? rowProblems : null,
      },
      problems.length > 0 ? `Manifest read, with problems: ${problems.join('; ')}` : 'Manifest published',
    );
  }

  /**
   * Plans a manifest's rows: problems reported, changed files put under their documents, and the
   * request that publishes the rest (null when there is none). Null when the manifest is refused whole.
   */
  private async planBatch(
    manifest: PlannedManifest,
    signature: string,
    files: { name: string; size: number; sha256?: string; path: string }[],
  ): Promise<{ batch: PendingBatch | null; problems: string[]; rowProblems: RowProblem[] } | null> {
    const manifestPath = manifest.entry.path;
    // Files beside the manifest that the portal would refuse (too large, empty, a PDF named
    // .docx…) are not sent, but a row naming one says why, not 'file not found'; each
    // keeps its own reason, checked by its first bytes as the server checks it.
    const refusedFiles = this.ctx.ledger.all().flatMap((e) => {
      if (e.missing || e.path === manifestPath || path.posix.dirname(e.path) !== manifest.folder || files.some((f) => f.path === e.path)) return [];
      const name = path.posix.basename(e.path).normalize('NFC');
      const refusal = documentRefusal({ name, size: e.size, head: this.ctx.headOf(e.path) });
      return refusal ? [{ name, size: e.size, path: e.path, refusal }] : [];
    });
    // Read as the user import reads a CSV: UTF-8 with or without BOM, else Windows-1252 (Excel).
    const { text: csvText, encoding } = decodeCsvBytes(await readFile(path.join(this.ctx.folder, manifestPath)));
    const hashes = [...new Set(files.map((f) => f.sha256).filter((s): s is string => Boolean(s)))];
    const known = await this.ctx.portal.bulkPreview(manifestEmails(csvText), hashes);
    // A file changed in place that this sync published: a row correcting one of its documents
    // (core's identity: same investor, title, category and period) puts the new file under it.
    const replaceable = this.replacements.replaceable(files.map((f) => f.path));
    const plan = planBulkManifest({
      csvText,
      encoding,
      files: [...files, ...refusedFiles],
      // Rows without a document_date are filed under the quarter folder's period: the folder says the quarter.
      period: { year: manifest.year, quarter: manifest.quarter },
      ...manifestKnowledgeOf(known.users),
    });
    if (plan.error) {
      // A manifest that cannot be read whole publishes nothing (half a batch would be a wrong
      // batch): its files wait with it, each saying why, until the manifest changes (the
      // batch's signature is kept).
      this.ctx.setState(manifestPath, { state: 'needs-attention', lastError: plan.error, batchSignature: signature }, plan.error);
      const refused = `${path.basename(manifestPath)} was refused: ${plan.error}`;
      for (const file of files) {
        const current = this.ctx.ledger.get(file.path);
        if (current && current.state !== 'published') this.ctx.setState(file.path, { state: 'needs-attention', lastError: refused }, refused);
      }
      return null;
    }
    const pathOf = new Map(files.map((f) => [f.name, f.path]));
    const refusedNames = new Set(refusedFiles.map((f) => f.name));
    const problems: string[] = [];
    const rowProblems: RowProblem[] = [];
    const toSend: typeof plan.rows = [];
    // A file named by a good row and a bad one (a second investor unknown, say) is published
    // for the good row; the bad row is reported on the manifest.
    const goodFiles = new Set(plan.rows.filter((row) => row.outcome === 'publish' || row.outcome === 'already-published').map((row) => row.filename));
    const replacements: PersonalReplacement[] = [];
    for (const row of plan.rows) {
      const filePath = pathOf.get(row.filename);
      const corrected = row.outcome === 'publish' ? row.corrects?.documentId : undefined;
      const replacing = corrected === undefined ? undefined : replaceable.get(corrected);
      if (row.outcome === 'publish' && replacing && replacing.filePath === filePath) {
        replacements.push({ filePath, name: row.file.name, documentId: replacing.documentId, email: row.email, title: row.title });
      } else if (row.outcome === 'publish') toSend.push(row);
      else if (row.outcome === 'already-published') {
        if (filePath && !toSend.some((r) => r.filename === row.filename)) {
          const current = this.ctx.ledger.get(filePath);
          // Published by this sync before, it stays so; otherwise the portal had it already.
          const alreadyOnPortal = current?.state !== 'published' || current.alreadyOnPortal === true;
          this.ctx.setState(filePath, { state: 'published', publishedSha256: current?.sha256 ?? null, lastError: null, alreadyOnPortal }, `Already published for ${row.email}: not sent again`);
        }
      } else {
        problems.push(`row ${row.row}: ${row.error}`);
        if (filePath && !goodFiles.has(row.filename) && !refusedNames.has(row.filename)) {
          this.ctx.setState(filePath, { state: 'needs-attention', lastError: `manifest.csv row ${row.row}: ${row.error}` }, `Manifest row ${row.row}: ${row.error}`);
        } else if (!filePath || goodFiles.has(row.filename)) {
          rowProblems.push({ row: row.row, reason: row.error });
        }
      }
    }
    for (const name of plan.unprocessed) {
      if (refusedNames.has(name)) continue;
      const filePath = pathOf.get(name);
      const current = filePath === undefined ? undefined : this.ctx.ledger.get(filePath);
      // A file published by content matching before the folder had a manifest stays published; a
      // combined PDF whose other pages went to the draft says so.
      if (current?.contentMatched && current.state === 'published') continue;
      if (filePath && current?.contentMatched) this.ctx.setState(filePath, { kind: 'personal', state: 'needs-attention', lastError: contentMatchMessages.matchedBefore }, contentMatchMessages.matchedBefore);
      else if (filePath) this.ctx.setState(filePath, { kind: 'unmatched', state: 'needs-attention', lastError: 'Not named by manifest.csv.' }, 'Not named by manifest.csv');
    }

    await this.replacements.replace(replacements, problems);
    if (toSend.length === 0) return { batch: null, problems, rowProblems };

    const header = 'email,filename,document_category,title,description,document_date,tags';
    const lines = toSend.map((row) =>
      row.outcome === 'publish'
        ? [row.email, row.file.name, row.documentCategory, row.title, row.description, row.documentDate ?? '', row.tags].map(manifestCell).join(',')
        : '',
    );
    const text = [header, ...lines].join('\r\n');
    const sent = [...new Set(toSend.map((row) => row.filename))];
    // The batch's period is part of what it asks: the same files from another quarter folder
    // are another batch.
    const idempotencyKey = createHash('sha256')
      .update([`${manifest.year}-${manifest.quarter}`, text, ...sent.map((name) => files.find((f) => f.name === name)?.sha256 ?? name).sort()].join('\n'))
      .digest('hex');
    return { batch: { signature, idempotencyKey, text, files: sent, rows: toSend.length, problems, rowProblems }, problems, rowProblems };
  }

  /** Sends a planned batch (or sends it again, after a lost answer) and records what the portal answered. */
  private async sendBatch(manifest: PlannedManifest, signature: string, attempts: number, batch: PendingBatch, pathOf: Map<string, string>): Promise<void> {
    const manifestPath = manifest.entry.path;
    this.ctx.setState(manifestPath, { state: 'publishing', attempts, pendingBatch: batch }, `Publishing ${batch.rows} personal documents`);
    for (const name of batch.files) this.ctx.setState(pathOf.get(name)!, { state: 'publishing' }, 'Publishing');
    await this.ctx.ledger.save();
    if (this.ctx.stopped()) return;
    const answer = await this.ctx.portal.bulkUpload(
      { name: 'manifest.csv', text: batch.text },
      batch.files.map((name) => ({ absolutePath: path.join(this.ctx.folder, pathOf.get(name)!), name })),
      // The quarter folder's period (a row's own document_date still wins); with e-mail, the
      // batch's e-mails wait for the digest that also covers the folder's property documents.
      { emailNotification: this.ctx.notifies, idempotencyKey: batch.idempotencyKey, year: manifest.year, quarter: manifest.quarter, notifyLater: this.ctx.notifies },
    );
    this.ctx.reached();
    const problems = [...batch.problems];
    const pending = new Set(answer.pendingUserDocumentIds ?? []);
    for (const done of answer.successful) {
      const filePath = pathOf.get(done.filename);
      if (filePath) {
        const entry = this.ctx.ledger.get(filePath);
        const record: PublishedPersonalDocument = {
          email: done.userEmail.toLowerCase(),
          title: done.title,
          documentId: done.documentId,
          ...(pending.has(done.documentId) ? { notifyPending: true } : {}),
        };
        const personalDocuments = [...(entry?.personalDocuments ?? []).filter((d) => d.documentId !== done.documentId), record];
        this.ctx.setState(
          filePath,
          {
            state: 'published',
            documentId: done.documentId,
            publishedSha256: entry?.sha256 ?? null,
            attempts: 0,
            lastError: null,
            alreadyOnPortal: false,
            personalDocuments,
            publishedAt: Date.now(),
          },
          `Published as "${done.title}" for ${done.userEmail}, document ${done.documentId}`,
        );
      }
    }
    // Rows the investor already had (this batch answered again under its key, or content
    // published before): on the portal, not failures, and not published again.
    for (const already of answer.alreadyPublished) {
      const filePath = pathOf.get(already.filename);
      if (!filePath || answer.successful.some((done) => done.filename === already.filename)) continue;
      const entry = this.ctx.ledger.get(filePath);
      const personalDocuments =
        already.documentId === undefined
          ? entry?.personalDocuments
          : [
              ...(entry?.personalDocuments ?? []).filter((d) => d.documentId !== already.documentId),
              {
                email: already.userEmail.toLowerCase(),
                title: already.title,
                documentId: already.documentId,
                // A batch answered again under its key (its first answer lost) keeps its digest owed.
                ...(pending.has(already.documentId) ? { notifyPending: true } : {}),
              },
            ];
      this.ctx.setState(
        filePath,
        {
          state: 'published',
          publishedSha256: entry?.sha256 ?? null,
          attempts: 0,
          lastError: null,
          // A batch answered again under its key was this sync's own (its first answer lost):
          // published now, as far as any run knows; otherwise the investor had it.
          alreadyOnPortal: answer.repeated !== true,
          ...(answer.repeated === true ? { publishedAt: Date.now() } : {}),
          ...(personalDocuments ? { personalDocuments } : {}),
        },
        `Already on the portal for ${already.userEmail}${already.documentId === undefined ? '' : ` as document ${already.documentId}`}: not published again`,
      );
    }
    for (const failure of answer.failed) {
      problems.push(`${failure.filename}: ${failure.error}`);
      const filePath = pathOf.get(failure.filename);
      if (filePath) this.ctx.setState(filePath, { state: 'needs-attention', lastError: failure.error }, `Refused by the portal: ${failure.error}`);
    }
    this.manifestDone(manifestPath, signature, problems, batch.rowProblems ?? []);
  }
}
