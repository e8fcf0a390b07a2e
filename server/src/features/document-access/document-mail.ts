import { siteFacts } from '@everest/fixtures/site';
import type { Mail } from '../mail/outbox';
import { renderMail, type MailBlock } from '../mail/templates';

/** One new document as a digest lists it: what it is, never the file or a link to the file. */
export interface PublishedDocument {
  title: string;
  /** 'Sunset Terrace Apartments · Q2 2026', 'Tax Documents · Q1 2026'. */
  context: string;
  /**
   * Set when the document corrects one the investor already had: the e-mail says so,
   * with the administrator's reason when one was written ('' for none).
   */
  correction?: { note: string };
}

const note = `Questions? Contact Investor Relations at ${siteFacts.investorRelations.phone} or ${siteFacts.investorRelations.email}.`;

/** A corrected document's line: its context, then that it is a correction, and why. */
function contextOf(document: PublishedDocument): string {
  if (!document.correction) return document.context;
  return `${document.context} · Corrected${document.correction.note ? `: ${document.correction.note}` : ''}`;
}

function subjectOf(documents: readonly PublishedDocument[]): string {
  const corrected = documents.filter((d) => d.correction).length;
  if (documents.length === 1) {
    return corrected ? 'A corrected document is available in your investor portal' : 'A new document is available in your investor portal';
  }
  if (corrected === documents.length) return `${documents.length} corrected documents are available in your investor portal`;
  if (corrected > 0) return `${documents.length} new or corrected documents are available in your investor portal`;
  return `${documents.length} new documents are available in your investor portal`;
}

/**
 * The digest an investor receives for one publishing action: every new or corrected document
 * for them, and a link to the portal, where they sign in to read it. The file never travels by
 * e-mail, and the link carries no token: a forwarded e-mail opens nothing. A correction is said
 * to be one, with its reason, so that the investor knows to use the new file.
 */
export function newDocumentsMail(to: string, name: string, documents: readonly PublishedDocument[], portalUrl: string): Mail {
  const one = documents.length === 1;
  const corrections = documents.filter((d) => d.correction);
  const blocks: MailBlock[] = [
    {
      kind: 'paragraph',
      text:
        corrections.length === documents.length
          ? one
            ? 'Everest Properties has published a corrected version of a document you have:'
            : 'Everest Properties has published corrected versions of documents you have:'
          : corrections.length > 0
            ? 'Everest Properties has published new and corrected documents for you:'
            : one
              ? 'Everest Properties has published a new document for you:'
              : 'Everest Properties has published new documents for you:',
    },
    { kind: 'fields', rows: documents.map((d) => [d.title, contextOf(d)] as const) },
  ];
  if (corrections.length > 0) {
    blocks.push({
      kind: 'paragraph',
      text: `A corrected document replaces the earlier version, which you should no longer use. In the portal it is marked 'Corrected'.`,
    });
  }
  blocks.push(
    { kind: 'paragraph', text: `Sign in to the investor portal to read ${one ? 'it' : 'them'} under 'Your Documents'.` },
    { kind: 'button', label: 'Open the investor portal', url: portalUrl },
  );
  return {
    to,
    ...renderMail({ subject: subjectOf(documents), greeting: name ? `Hello ${name},` : 'Hello,', blocks, note }),
    // A quarter's notices go to every investor at once: they never hold up a reset link.
    lane: 'bulk',
  };
}
