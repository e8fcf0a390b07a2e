// Deciding what to send: the settled files planned (plan.ts) with the portal's property list,
// and each property document or manifest batch that still has work queued once. A file
// published with the same content, waiting for a person, or not yet due for its next attempt
// has none, so that a tick that changes nothing sends nothing.

import type { PlannedManifest } from '@everest/core/domain';
import { takeContentFolders, type ContentFolder, type ContentMatches } from './content-match';
import type { SyncContext } from './context';
import type { LedgerEntry } from './ledger';
import { batchSignatureOf, type ManifestBatches } from './manifest-batch';
import { currentPlan, Heads, recordPlan } from './plan';
import type { PropertyUploads } from './property-upload';

export class Decider {
  /** The first bytes of each finished file, for core's type check. */
  readonly heads = new Heads();
  private propertyList: { names: string[]; at: number } | null = null;

  constructor(
    private readonly ctx: SyncContext,
    private readonly steps: {
      rootName: string;
      /** How long the portal's property list is trusted (the full scans' period). */
      rescanMs: number;
      properties: PropertyUploads;
      manifests: ManifestBatches;
      /** With --match-content: investors folders without a manifest are matched by content. */
      content?: ContentMatches;
      /** Whether a file below this folder prefix is still settling. */
      settlingBelow: (folderPrefix: string) => boolean;
      /** Queues a job under its key (once). */
      enqueue: (key: string, job: () => Promise<void>) => void;
    },
  ) {}

  /** The property list is asked for again at the next plan (a property created since, the portal back). */
  forgetPropertyList(): void {
    this.propertyList = null;
  }

  mayRetry(entry: LedgerEntry): boolean {
    return entry.attempts < this.ctx.maxAttempts;
  }

  /** Plans the settled files and queues what must be sent; false when the portal's property list could not be had. */
  async reconcile(): Promise<boolean> {
    const { ledger } = this.ctx;
    let names: string[];
    try {
      if (!this.propertyList || Date.now() - this.propertyList.at > this.steps.rescanMs) {
        this.propertyList = { names: await this.ctx.portal.propertyNames(), at: Date.now() };
      }
      names = this.propertyList.names;
    } catch (error) {
      this.ctx.failed('.', error, 0);
      return false;
    }
    this.ctx.reached();
    await this.heads.fill(this.ctx.folder, ledger.all());
    const full = currentPlan(ledger, this.heads, this.steps.rootName, names);
    const contentFolders = this.steps.content ? takeContentFolders(full, this.steps.rootName) : [];
    const plan = recordPlan(this.ctx, full);
    for (const document of plan.propertyDocuments) {
      if (this.wantsWork(ledger.get(document.entry.path)!)) {
        this.steps.enqueue(`p:${document.entry.path}`, () => this.steps.properties.publish(document, (e) => this.wantsWork(e)));
      }
    }
    for (const manifest of plan.manifests) this.considerManifest(manifest);
    for (const folder of contentFolders) this.considerContent(folder);
    return true;
  }

  /** An investors folder without a manifest, matched by content once all of it has settled and whenever it changes. */
  private considerContent(folder: ContentFolder): void {
    const content = this.steps.content!;
    if (this.steps.settlingBelow(`${folder.folder}/`) || !content.wantsWork(folder)) return;
    this.steps.enqueue(`c:${folder.folder}`, () => content.publish(folder));
  }

  private wantsWork(entry: LedgerEntry): boolean {
    // A property document published before destinations were recorded is checked once (adoptDestination).
    if (entry.state === 'published' && entry.kind === 'property' && entry.documentId !== null && !entry.destination) return true;
    if (entry.state === 'published' && entry.kind === 'property' && this.steps.properties.recheck(entry)) return true;
    if (entry.state === 'published' && entry.publishedSha256 === entry.sha256) return false;
    if (entry.state === 'needs-attention') return false;
    if (entry.state === 'failed' && (!this.mayRetry(entry) || (entry.nextRetryAt ?? 0) > Date.now())) return false;
    return true;
  }

  private considerManifest(manifest: PlannedManifest): void {
    const { ledger } = this.ctx;
    const folderPrefix = `${manifest.folder}/`;
    // A batch waits for its whole folder to settle: a manifest copied before its files must
    // not publish half of them.
    if (this.steps.settlingBelow(folderPrefix)) return;
    const signature = batchSignatureOf(manifest);
    const current = ledger.get(manifest.entry.path)!;
    if (current.kind === 'manifest' && current.batchSignature === signature && current.state === 'published') return;
    if (current.kind !== 'manifest' || (current.batchSignature !== signature && current.state !== 'publishing' && current.state !== 'failed')) {
      // A new or changed batch: its manifest and files are looked at afresh.
      ledger.update(current.path, { kind: 'manifest', batchSignature: null, state: 'waiting', attempts: 0, nextRetryAt: null, lastError: null, rowProblems: null });
      for (const file of manifest.files) {
        const entry = ledger.get(file.entry.path)!;
        if (entry.state !== 'published' || entry.publishedSha256 !== entry.sha256) {
          ledger.update(entry.path, { kind: 'personal', state: 'waiting', lastError: null });
        }
      }
    }
    if (!this.wantsWork(ledger.get(current.path)!)) return;
    this.steps.enqueue(`m:${manifest.folder}`, () => this.steps.manifests.publish(manifest, signature, (e) => this.wantsWork(e)));
  }
}
