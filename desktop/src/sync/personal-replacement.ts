// A personal document this sync published whose file then changed in place is corrected, not
// published a second time: the new file is put under the same document (replace-user-document),
// so that the investor sees one document with its latest file, and the correction joins the
// batch's e-mail digest as corrected.

import path from 'node:path';
import type { SyncContext } from './context';
import { isRefusal } from './failures';

/** A personal document this sync published whose file changed in place. */
export interface PersonalReplacement {
  filePath: string;
  /** The name sent (NFC). */
  name: string;
  documentId: number;
  email: string;
  title: string;
}

export class PersonalReplacements {
  constructor(private readonly ctx: SyncContext) {}

  /**
   * The personal documents this sync published from these files whose content has changed
   * since, by document id: replaced, not published a second time.
   */
  replaceable(paths: string[]): Map<number, { filePath: string; documentId: number }> {
    const replaceable = new Map<number, { filePath: string; documentId: number }>();
    for (const filePath of paths) {
      const entry = this.ctx.ledger.get(filePath);
      if (!entry?.personalDocuments || entry.sha256 === null || entry.publishedSha256 === null || entry.sha256 === entry.publishedSha256) continue;
      for (const document of entry.personalDocuments) {
        replaceable.set(document.documentId, { filePath, documentId: document.documentId });
      }
    }
    return replaceable;
  }

  /**
   * Puts each changed file under its documents. A refusal (the document deleted in the panel,
   * the content already another document of that investor) leaves that file for a person; a
   * network failure fails the batch, which is tried again whole (a replace sent twice is harmless).
   */
  async replace(replacements: PersonalReplacement[], problems: string[]): Promise<void> {
    const refused = new Set<string>();
    const replaced = new Map<string, string[]>();
    for (const { filePath, name, documentId, email, title } of replacements) {
      if (this.ctx.stopped()) return;
      if (refused.has(filePath)) continue;
      this.ctx.setState(filePath, { state: 'publishing' }, `Replacing the file of "${title}" for ${email}`);
      await this.ctx.ledger.save();
      try {
        // A correction is announced in the batch's digest, as corrected (notifyLater).
        const answer = await this.ctx.portal.replacePersonalDocument(
          documentId,
          { absolutePath: path.join(this.ctx.folder, filePath), name },
          { userEmail: email, emailNotification: this.ctx.notifies, notifyLater: this.ctx.notifies },
        );
        this.ctx.reached();
        if (this.ctx.notifies && answer.corrected === true) {
          const entry = this.ctx.ledger.get(filePath);
          const personalDocuments = entry?.personalDocuments?.map((d) => (d.documentId === documentId ? { ...d, notifyPending: true } : d));
          this.ctx.ledger.update(filePath, { personalDocuments });
        }
      } catch (error) {
        if (!isRefusal(error)) throw error;
        refused.add(filePath);
        problems.push(`${name}: ${error.message}`);
        this.ctx.setState(filePath, { state: 'needs-attention', lastError: error.message }, `Refused by the portal: ${error.message}`);
        continue;
      }
      replaced.set(filePath, [...(replaced.get(filePath) ?? []), `"${title}" for ${email} (document ${documentId})`]);
    }
    for (const [filePath, documents] of replaced) {
      if (refused.has(filePath)) continue;
      this.ctx.setState(
        filePath,
        { state: 'published', publishedSha256: this.ctx.ledger.get(filePath)?.sha256 ?? null, attempts: 0, nextRetryAt: null, lastError: null, publishedAt: Date.now() },
        `Replaced the file of ${documents.join(', ')}`,
      );
    }
  }
}
