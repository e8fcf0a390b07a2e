import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { publicationKey, type Destination, type Quarter } from '@everest/core/domain';

/**
 * - `waiting`: seen, not yet settled or not yet sent;
 * - `publishing`: a request is (or was, when the process died) on its way: its outcome is
 *   unknown, so the server is asked before anything is sent again;
 * - `published`: the server holds this content (documentId when known);
 * - `failed`: the last attempt failed for a reason that may pass (network, 5xx); retried at `nextRetryAt`;
 * - `needs-attention`: unmatched by the layout or refused by the server: a person must act.
 */
export type LedgerState = 'waiting' | 'publishing' | 'published' | 'failed' | 'needs-attention';

export type LedgerKind = 'property' | 'manifest' | 'personal' | 'unmatched';

export interface LedgerEntry {
  /** Relative to the watched folder, as the file system spells it. */
  path: string;
  size: number;
  mtimeMs: number;
  /** Of the content last settled (and, once published, of the content the server holds). */
  sha256: string | null;
  kind: LedgerKind;
  state: LedgerState;
  /** The server's document id, for a property document to be replaced later. */
  documentId: number | null;
  /**
   * For a property document: the destination documentId was published to (the same file under
   * two properties is two documents, one for each property's investors). A file
   * stands in for a document of its own property only; an entry written before this field
   * existed is checked against the server before it is trusted.
   */
  destination?: Destination;
  /** The content the server holds for documentId; differs from sha256 while a replacement is due. */
  publishedSha256: string | null;
  attempts: number;
  /** Epoch ms. */
  nextRetryAt: number | null;
  lastError: string | null;
  /** True once the file is gone from the folder; the portal keeps its document. */
  missing: boolean;
  /** For a manifest: the batch last published, so that an unchanged folder is not sent again. */
  batchSignature?: string | null;
  /**
   * For a property document uploaded with its e-mail deferred (notifyLater): the batch digest
   * (notify-documents) has not been confirmed yet. Kept across restarts; the server sends a
   * document's e-mail once however often it is asked.
   */
  notifyPending?: boolean;
  /**
   * For a personal document: the documents this file was published as, one per investor, so
   * that new content under the same title and investor replaces them (replace-user-document).
   */
  personalDocuments?: PublishedPersonalDocument[];
  /**
   * For a manifest: the batch request on its way (written before it is sent), sent again as it
   * is after a lost answer or a crash, so that the server answers it under its key.
   */
  pendingBatch?: PendingBatch | null;
  /**
   * For a property document being uploaded: the Idempotency-Key of its upload, kept
   * until the server answers, so that a retry after a lost answer or a crash is the same request.
   */
  uploadKey?: string | null;
  /**
   * The portal held this publication already (its answer `alreadyPublished`, or a file of the
   * folder published it from another path): nothing new was published from this file, and the
   * report says so rather than "published".
   */
  alreadyOnPortal?: boolean;
  /** For a property document: the period it was published under, to tell a moved folder. */
  period?: { year: number; quarter: Quarter } | null;
  /**
   * A property document already on the portal under another period than its folder's (a folder
   * moved from Q3 to Q4): the document stays where it is filed; a person decides, since the sync
   * cannot know which quarter is right.
   */
  filedElsewhere?: { documentId: number; year: number; quarter: Quarter } | null;
  /** For a manifest: its rows that publish nothing, each with its reason, so that no row is lost silently. */
  rowProblems?: { row: number; reason: string }[] | null;
  /** A copy of another file of the folder with the same content for the same destination: skipped by core's twin rule. */
  twinOf?: string | null;
  /** Its end has been missing for long (a PDF without %%EOF): not planned until it changes. */
  incomplete?: string | null;
  /**
   * When this sync last made the portal publish new content from this file (epoch ms): a run
   * reports as published only what it sent itself; the rest was already on the portal.
   */
  publishedAt?: number | null;
  /**
   * For a file of an investors folder without a manifest, matched by content (content-match.ts):
   * the signature of the folder's files its state was decided for, so an unchanged folder is not
   * read again.
   */
  contentMatched?: string | null;
  /** For a property document: why no investor can see it (noReaderWarning), said in the report; null when they can. */
  noReader?: string | null;
  updatedAt: string;
}

export interface PublishedPersonalDocument {
  /** Lower case. */
  email: string;
  title: string;
  documentId: number;
  /**
   * Published with its e-mail deferred (bulk's notifyLater): the digest that covers the quarter
   * folder's property and personal documents together has not been confirmed yet, and is sent
   * after a restart.
   */
  notifyPending?: boolean;
}

/** A manifest batch as it is sent: the rewritten manifest of the rows that publish, and their files. */
export interface PendingBatch {
  /** The batch signature (manifest and files) it was planned from. */
  signature: string;
  idempotencyKey: string;
  /** The manifest sent: only the rows that publish. */
  text: string;
  /** The names (NFC) of the files sent. */
  files: string[];
  rows: number;
  /** The plan's problem rows, reported with the answer. */
  problems: string[];
  /** The rows that publish nothing and whose reason no file shows: reported on the manifest. */
  rowProblems?: { row: number; reason: string }[];
}

interface LedgerFile {
  version: 1;
  entries: LedgerEntry[];
  /** System and editor files of the folder at the last scan: skipped by rule, and reported as such. */
  skipped?: string[];
}

/**
 * The sync's memory, one JSON file beside (never inside) the watched folder. Every write goes to
 * a temp file that is flushed and then renamed over the ledger, so a crash leaves either the old
 * ledger or the new one, never half of one.
 */
export class Ledger {
  private readonly entries = new Map<string, LedgerEntry>();
  private skippedFiles: string[] = [];
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;

  private constructor(readonly file: string) {}

  static async open(file: string): Promise<Ledger> {
    const ledger = new Ledger(file);
    let text: string | null = null;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text !== null) {
      const parsed = JSON.parse(text) as LedgerFile;
      if (parsed.version !== 1 || !Array.isArray(parsed.entries)) throw new Error(`${file} is not a sync ledger this version can read.`);
      for (const entry of parsed.entries) ledger.entries.set(entry.path, entry);
      ledger.skippedFiles = Array.isArray(parsed.skipped) ? parsed.skipped : [];
    }
    return ledger;
  }

  /** The files skipped by rule at the last scan, so that a report read from the ledger alone counts them. */
  get skipped(): readonly string[] {
    return this.skippedFiles;
  }

  set skipped(paths: readonly string[]) {
    if (paths.length === this.skippedFiles.length && paths.every((p, i) => p === this.skippedFiles[i])) return;
    this.skippedFiles = [...paths];
    this.dirty = true;
  }

  get(relativePath: string): LedgerEntry | undefined {
    return this.entries.get(relativePath);
  }

  all(): LedgerEntry[] {
    return [...this.entries.values()];
  }

  /** Creates or updates an entry; the change is written by the next `save`. */
  put(entry: Omit<LedgerEntry, 'updatedAt'>): LedgerEntry {
    const stored = { ...entry, updatedAt: new Date().toISOString() };
    this.entries.set(entry.path, stored);
    this.dirty = true;
    return stored;
  }

  update(relativePath: string, change: Partial<Omit<LedgerEntry, 'path' | 'updatedAt'>>): LedgerEntry {
    const current = this.entries.get(relativePath);
    if (!current) throw new Error(`No ledger entry for ${relativePath}`);
    return this.put({ ...current, ...change });
  }

  /**
   * A file read once finished, with its size, mtime and hash: a new entry, or the entry updated.
   * A touched file (the same content) keeps its state; new content is looked at afresh.
   */
  recordRead(relativePath: string, size: number, mtimeMs: number, sha256: string): void {
    const entry = this.get(relativePath);
    if (entry) {
      const sameContent = entry.sha256 === sha256 && !entry.incomplete;
      this.update(relativePath, {
        size,
        mtimeMs,
        sha256,
        missing: false,
        ...(sameContent ? {} : { state: 'waiting' as const, attempts: 0, nextRetryAt: null, lastError: null, uploadKey: null, incomplete: null }),
      });
      return;
    }
    this.put({
      path: relativePath,
      size,
      mtimeMs,
      sha256,
      kind: 'unmatched',
      state: 'waiting',
      documentId: null,
      publishedSha256: null,
      attempts: 0,
      nextRetryAt: null,
      lastError: null,
      missing: false,
    });
  }

  /**
   * A published entry holding this publication (core's publicationKey: content AND destination),
   * from any path (a renamed or moved file). The same content for another property is another
   * publication, never this one.
   */
  publishedAs(publication: string): LedgerEntry | undefined {
    for (const entry of this.entries.values()) {
      if (entry.state !== 'published' || !entry.destination || entry.publishedSha256 === null || entry.documentId === null) continue;
      if (publicationKey(entry.destination, entry.publishedSha256) === publication) return entry;
    }
    return undefined;
  }

  /** Writes the ledger if it changed; saves are serialised, and a save waits for the one before. */
  save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      const text = JSON.stringify({ version: 1, entries: this.all(), skipped: this.skippedFiles } satisfies LedgerFile, null, 1);
      await mkdir(path.dirname(this.file), { recursive: true });
      const temp = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        const handle = await open(temp, 'w');
        try {
          await handle.writeFile(text, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temp, this.file);
      } catch (error) {
        this.dirty = true;
        await rm(temp, { force: true });
        throw error;
      }
    });
    return this.saving;
  }
}
