import { siteFacts } from '@everest/fixtures/site';
import type { Mail } from '../mail/outbox';
import { renderMail } from '../mail/templates';

/** One new document as a digest lists it: what it is, never the file or a link to the file. */
export interface PublishedDocument {
  title: string;
  /** 'Sunset Terrace Apartments · Q2 2026', 'Tax Documents · Q1 2026'. */
  context: string;
}

const note = `Questions? Contact Investor Relations at ${siteFacts.investorRelations.phone} or ${siteFacts.investorRelations.email}.`;

/**
 * The digest an investor receives for one publishing action: every new document for them, and a
 * link to the portal, where they sign in to read it. The file never travels by e-mail, and the
 * link carries no token: a forwarded e-mail opens nothing.
 */
export function newDocumentsMail(to: string, name: string, documents: readonly PublishedDocument[], portalUrl: string): Mail {
  const one = documents.length === 1;
  return {
    to,
    ...renderMail({
      subject: one ? 'A new document is available in your investor portal' : `${documents.length} new documents are available in your investor portal`,
      greeting: name ? `Hello ${name},` : 'Hello,',
      blocks: [
        {
          kind: 'paragraph',
          text: one
            ? 'Everest Properties has published a new document for you:'
            : 'Everest Properties has published new documents for you:',
        },
        { kind: 'fields', rows: documents.map((d) => [d.title, d.context] as const) },
        { kind: 'paragraph', text: "Sign in to the investor portal to read it under 'Your Documents'." },
        { kind: 'button', label: 'Open the investor portal', url: portalUrl },
      ],
      note,
    }),
  };
}
