// The e-mail digest: documents are published with their e-mail deferred (notifyLater) and
// announced by one notify-documents call once the folder has settled, so that each reader gets
// one e-mail for a quarter's folder. Settled means nothing left to send and, while watching,
// the folder quiet for a settling window: without it, five files saved 3–5 s apart sent five
// e-mails to one investor.

import type { SyncContext } from './context';
import { retryDelayMs } from './backoff';
import { isRefusal, isSignInRefusal, isUnreachable, messageOf } from './failures';
import type { LedgerEntry } from './ledger';

/** Attempts of a failing file or batch that the digest waits for before going without it. */
const digestPatience = 3;

/** What this run's digests told: how many people, of how many documents, how many of them corrections. */
export interface EmailTold {
  people: number;
  documents: number;
  corrected: number;
}

/** 'E-mail: 3 people were told of 2 new and 1 corrected document.' */
export function emailToldSentence({ people, documents, corrected }: EmailTold): string {
  if (documents === 0) return 'E-mail: nothing new to announce; nobody was told.';
  const fresh = documents - corrected;
  const what =
    corrected === 0
      ? `${fresh} new document${fresh === 1 ? '' : 's'}`
      : fresh === 0
        ? `${corrected} corrected document${corrected === 1 ? '' : 's'}`
        : `${fresh} new and ${corrected} corrected document${documents === 1 ? '' : 's'}`;
  return `E-mail: ${people} ${people === 1 ? 'person was' : 'people were'} told of ${what}.`;
}

export class Digest {
  private failures = 0;
  private nextAt = 0;
  /** When a file last changed or was published: the settling window counts from there. */
  private lastActivity = 0;
  /** What this run's digests told (several calls add up). */
  readonly told: EmailTold = { people: 0, documents: 0, corrected: 0 };

  constructor(
    private readonly ctx: SyncContext,
    /** How long the folder must be quiet before the digest goes (0: as soon as nothing is left to send). */
    private readonly quietMs: number,
  ) {}

  /** A file changed or was published: the settling window starts again. */
  activity(now = Date.now()): void {
    this.lastActivity = now;
  }

  gaveUp(): boolean {
    return this.failures >= this.ctx.maxAttempts;
  }

  /** Documents published with their e-mail deferred whose digest is not confirmed: property and personal. */
  private pendingIds(): { documentIds: number[]; userDocumentIds: number[] } {
    const documentIds = new Set<number>();
    const userDocumentIds = new Set<number>();
    for (const entry of this.ctx.ledger.all()) {
      if (entry.notifyPending === true && entry.documentId !== null) documentIds.add(entry.documentId);
      for (const personal of entry.personalDocuments ?? []) if (personal.notifyPending === true) userDocumentIds.add(personal.documentId);
    }
    return { documentIds: [...documentIds], userDocumentIds: [...userDocumentIds] };
  }

  pending(): boolean {
    if (!this.ctx.notifies) return false;
    const { documentIds, userDocumentIds } = this.pendingIds();
    return documentIds.length + userDocumentIds.length > 0;
  }

  /**
   * Whether the digest may go now: something is owed, the engine has nothing settling, queued or
   * being sent (`busy`), the folder has been quiet for the settling window, and no property
   * document or manifest batch waits or fails for fewer than `digestPatience` attempts (a lost
   * answer is one retry away; one failing longer joins the next digest).
   */
  due(busy: boolean, now = Date.now()): boolean {
    if (this.ctx.stopped() || !this.pending() || this.gaveUp() || now < this.nextAt || busy) return false;
    if (now - this.lastActivity < this.quietMs) return false;
    const unsettled = (e: LedgerEntry) =>
      !e.missing &&
      (e.kind === 'property' || e.kind === 'manifest' || e.kind === 'unmatched') &&
      (e.state === 'waiting' || e.state === 'publishing' || (e.state === 'failed' && e.nextRetryAt !== null && e.attempts < digestPatience));
    return !this.ctx.ledger.all().some(unsettled);
  }

  /** One notify-documents call (in parts past the route's limits) for everything owed. */
  async send(): Promise<void> {
    const { ctx } = this;
    const { documentIds, userDocumentIds } = this.pendingIds();
    try {
      for (let part = 0; part * 1000 < documentIds.length || part * 10_000 < userDocumentIds.length; part += 1) {
        const ids = {
          documentIds: documentIds.slice(part * 1000, (part + 1) * 1000),
          userDocumentIds: userDocumentIds.slice(part * 10_000, (part + 1) * 10_000),
        };
        const answer = await ctx.portal.notifyDocuments(ids);
        ctx.reached();
        if (ctx.stopped()) return;
        const announced = { property: new Set(ids.documentIds), personal: new Set(ids.userDocumentIds) };
        for (const entry of ctx.ledger.all()) {
          const change: Partial<LedgerEntry> = {};
          if (entry.notifyPending === true && entry.documentId !== null && announced.property.has(entry.documentId)) change.notifyPending = false;
          if (entry.personalDocuments?.some((d) => d.notifyPending === true && announced.personal.has(d.documentId))) {
            change.personalDocuments = entry.personalDocuments.map(({ notifyPending, ...d }) =>
              notifyPending === true && !announced.personal.has(d.documentId) ? { ...d, notifyPending } : d,
            );
          }
          if (Object.keys(change).length > 0) ctx.ledger.update(entry.path, change);
        }
        const count = answer.documentIds.length + answer.userDocumentIds.length;
        const told = { people: answer.notified, documents: count, corrected: answer.corrected ?? 0 };
        this.told.people += told.people;
        this.told.documents += told.documents;
        this.told.corrected += told.corrected;
        ctx.emit({
          path: '.',
          state: 'published',
          message: count === 0 ? 'E-mail: nothing new to announce (already announced)' : `${emailToldSentence(told)} One digest each.`,
        });
      }
      this.failures = 0;
      this.nextAt = 0;
      await ctx.ledger.save();
    } catch (error) {
      if (ctx.stopped()) return;
      // The portal away or the sign-in refused: the engine says so once and waits, or stops.
      if (isUnreachable(error) || isSignInRefusal(error)) {
        ctx.failed('.', error, 0);
        return;
      }
      this.failures += 1;
      // A refusal will not pass by retrying: given up at once, and said so.
      if (isRefusal(error)) this.failures = Number.POSITIVE_INFINITY;
      this.nextAt = Date.now() + retryDelayMs(this.failures, ctx.backoff);
      ctx.emit({ path: '.', state: 'failed', message: `The e-mail digest could not be sent (attempt ${this.failures}): ${messageOf(error)}` });
    }
  }
}
