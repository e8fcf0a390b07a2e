// Uploading a property document: published once per publication (content and destination: the
// same notice under two properties reaches each one's investors), replaced when it changes in
// place, and said truly when the portal already held it, also under another quarter than its
// folder's.

import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { PropertyDocument } from '@everest/core/contract';
import { destinationKey, publicationKey, type Destination, type PlannedPropertyDocument } from '@everest/core/domain';
import type { SyncContext } from './context';
import type { LedgerEntry } from './ledger';
import { filedElsewhereSentence, noReaderWarning } from './report';

/**
 * The Idempotency-Key of one publication of a property document: its destination, content and
 * period, and a nonce of its own. Kept in the ledger until answered, so that a retry is the same
 * request; a new publication of the same file (a lost ledger, a document deleted in the panel
 * and published again) gets a new key, and the server's content rule answers it instead.
 */
function uploadKeyOf(publication: string, document: PlannedPropertyDocument): string {
  return createHash('sha256').update(['upload-document', publication, document.year, document.quarter, randomUUID()].join('\n')).digest('hex');
}

/** Where a property document of the folder goes: its property, or General. */
export const destinationOf = (document: PlannedPropertyDocument): Destination => ({ kind: 'property', property: document.property });

export class PropertyUploads {
  /**
   * Publications (core's publicationKey) being sent right now: a copy of the same file for the
   * same property waits for the first to finish; the same content for another property is
   * another publication and goes at once.
   */
  private readonly sending = new Set<string>();
  private serverDocuments: { documents: PropertyDocument[]; at: number } | null = null;
  /** Each property's readers, asked before its first new document and again after a minute. */
  private readers = new Map<string, { warning: Promise<string | null>; at: number }>();
  /** Files filed under another period, looked at again once per run (staff may have refiled them). */
  private readonly rechecked = new Set<string>();

  constructor(private readonly ctx: SyncContext) {}

  /** Whether this published file is to be asked about again in this run. */
  recheck(entry: LedgerEntry): boolean {
    return Boolean(entry.filedElsewhere) && !this.rechecked.has(entry.path);
  }

  /**
   * Publishes a property document. The upload carries an Idempotency-Key kept in the ledger
   * until it is answered: a retry after a lost answer (or a crash) is the same request again,
   * answered by the server with the first result. Content the server already holds for this
   * property (a lost ledger, a document retitled in the panel, a copy) is answered
   * `alreadyPublished` with that document: recorded, not published again; filed under another
   * quarter than the folder's, it needs a person, who knows which quarter is right.
   */
  async publish(document: PlannedPropertyDocument, wantsWork: (entry: LedgerEntry) => boolean): Promise<void> {
    const { ctx } = this;
    const relative = document.entry.path;
    let entry = ctx.ledger.get(relative);
    if (!entry || entry.missing || entry.sha256 === null || !wantsWork(entry)) return;
    const sha256 = entry.sha256;
    const destination = destinationOf(document);
    const publication = publicationKey(destination, sha256);
    if (this.sending.has(publication)) {
      ctx.wake();
      return;
    }
    this.sending.add(publication);
    const rechecking = this.recheck(entry);
    this.rechecked.add(relative);
    const file = { absolutePath: path.join(ctx.folder, relative), name: document.filename };
    const attempts = entry.attempts + 1;
    const period = { year: document.year, quarter: document.quarter };
    try {
      if (entry.documentId !== null && !entry.destination) {
        // A ledger written before destinations were recorded may hold another property's document
        // for this file (the same content was taken for a copy of it): asked of the server first.
        entry = await this.adoptDestination(entry, destination);
        if (entry.state === 'published' && entry.publishedSha256 === sha256) return;
      }
      if (entry.documentId !== null && entry.publishedSha256 !== null && entry.publishedSha256 !== sha256) {
        ctx.setState(relative, { state: 'publishing', attempts }, 'Replacing the published file');
        await ctx.ledger.save();
        // The server refuses (409) a document filed elsewhere: that waits for a person, never retried.
        // A correction is announced in the batch's digest, as corrected (notifyLater).
        const answer = await ctx.portal.replaceDocument(entry.documentId, file, {
          property: document.property,
          emailNotification: ctx.notifies,
          notifyLater: ctx.notifies,
        });
        ctx.reached();
        ctx.setState(
          relative,
          {
            state: 'published',
            publishedSha256: sha256,
            destination,
            attempts: 0,
            nextRetryAt: null,
            lastError: null,
            ...(answer.unchanged ? {} : { publishedAt: Date.now() }),
            ...(ctx.notifies && answer.corrected === true ? { notifyPending: true } : {}),
          },
          answer.unchanged ? `The portal already had this file for document ${entry.documentId}: nothing changed` : `Replaced the file of document ${entry.documentId}`,
        );
        return;
      }
      const twin = rechecking ? undefined : ctx.ledger.publishedAs(publication);
      if (twin && twin.path !== relative) {
        const elsewhere = twin.period && (twin.period.year !== document.year || twin.period.quarter !== document.quarter) ? twin.period : null;
        const filedElsewhere = elsewhere ? { documentId: twin.documentId!, ...elsewhere } : null;
        ctx.setState(
          relative,
          {
            state: 'published',
            documentId: twin.documentId,
            publishedSha256: sha256,
            destination,
            period: twin.period ?? null,
            alreadyOnPortal: true,
            filedElsewhere,
            attempts: 0,
            nextRetryAt: null,
            lastError: filedElsewhere ? filedElsewhereSentence(filedElsewhere, `${document.quarter} ${document.year}`) : null,
          },
          filedElsewhere
            ? filedElsewhereSentence(filedElsewhere, `${document.quarter} ${document.year}`)
            : `Already published from ${twin.path} (same content, same property): not sent again`,
        );
        return;
      }
      // Asked as the panel asks before an upload: a document nobody but administrators can read
      // is published all the same, and said to be one.
      const noReader = await this.noReaderOf(document.property);
      const idempotencyKey = entry.uploadKey ?? uploadKeyOf(publication, document);
      ctx.setState(relative, { state: 'publishing', attempts, uploadKey: idempotencyKey }, 'Publishing');
      await ctx.ledger.save();
      if (ctx.stopped()) return;
      // The e-mail waits for the batch's digest, sent once the folder has settled.
      const answer = await ctx.portal.uploadDocument(
        { title: document.title, property: document.property, year: document.year, quarter: document.quarter, emailNotification: ctx.notifies, notifyLater: ctx.notifies },
        file,
        { idempotencyKey },
      );
      ctx.reached();
      const published = answer.document;
      const already = answer.alreadyPublished === true;
      const filedElsewhere =
        already && (published.year !== document.year || published.quarter !== document.quarter)
          ? { documentId: published.id, year: published.year, quarter: published.quarter }
          : null;
      const message = filedElsewhere
        ? filedElsewhereSentence(filedElsewhere, `${document.quarter} ${document.year}`)
        : already
          ? `Already on the portal as document ${published.id}${published.title !== document.title ? ` ("${published.title}")` : ''}: not published again`
          : `Published as "${document.title}" (${document.property}, ${document.quarter} ${document.year}), document ${published.id}${noReader ? `. ${noReader}` : ''}`;
      ctx.setState(
        relative,
        {
          state: 'published',
          documentId: published.id,
          publishedSha256: sha256,
          destination,
          period: filedElsewhere ? { year: published.year, quarter: published.quarter } : period,
          alreadyOnPortal: already,
          filedElsewhere,
          attempts: 0,
          nextRetryAt: null,
          lastError: filedElsewhere ? message : null,
          uploadKey: null,
          ...(already ? {} : { publishedAt: Date.now(), noReader }),
          // Already published: an earlier upload of ours whose digest may still be owed, or someone
          // else's; the server announces a document once at most, so asking again is harmless.
          ...(ctx.notifies ? { notifyPending: true } : {}),
        },
        message,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        ctx.markMissing(relative);
        return;
      }
      ctx.failed(relative, error, attempts);
    } finally {
      this.sending.delete(publication);
    }
  }

  /** The warning for a new document of `property` that no investor could see, or null. */
  private async noReaderOf(property: string): Promise<string | null> {
    const key = destinationKey({ kind: 'property', property });
    const known = this.readers.get(key);
    if (known && Date.now() - known.at <= 60_000) return known.warning;
    const warning = this.ctx.portal.documentRecipients(property).then((answer) => noReaderWarning(property, answer));
    this.readers.set(key, { warning, at: Date.now() });
    // A failed question is asked again next time.
    warning.catch(() => this.readers.delete(key));
    return warning;
  }

  /**
   * An entry from before destinations were recorded: its document is looked up on the portal.
   * Filed under this file's own property, the destination is written down; filed under another
   * (the old engine took the same content under two properties for one publication), the entry
   * forgets it, and the file is published to its own property as any new one.
   */
  private async adoptDestination(entry: LedgerEntry, destination: Destination): Promise<LedgerEntry> {
    const { ctx } = this;
    if (!this.serverDocuments || Date.now() - this.serverDocuments.at > 60_000) {
      this.serverDocuments = { documents: await ctx.portal.propertyDocuments(), at: Date.now() };
    }
    const onPortal = this.serverDocuments.documents.find((d) => d.id === entry.documentId);
    // Deleted on the portal, or filed under this file's own property: the file's destination is
    // written down (a replace of a deleted document is refused and waits for a person).
    if (!onPortal || destinationKey({ kind: 'property', property: onPortal.property }) === destinationKey(destination)) {
      return ctx.ledger.update(entry.path, { destination });
    }
    ctx.emit({
      path: entry.path,
      state: 'waiting',
      message: `Recorded against document ${onPortal.id} of ${onPortal.property}, which is not this file's property: published for ${
        destination.kind === 'property' ? destination.property : destination.email
      } instead`,
    });
    return ctx.ledger.update(entry.path, { state: 'waiting', documentId: null, publishedSha256: null, notifyPending: false });
  }
}
