import { siteFacts } from '@everest/fixtures/site';
import type { Mail } from '../mail/outbox';
import { renderMail } from '../mail/templates';

const note = `Questions? Contact Investor Relations at ${siteFacts.investorRelations.phone} or ${siteFacts.investorRelations.email}.`;

/**
 * Told to an existing investor whose access an import widened: the properties they can now see,
 * and a link to the portal (no token: a forwarded e-mail opens nothing).
 */
export function propertyAccessMail(
  to: string,
  name: string,
  properties: readonly string[],
  portalUrl: string,
  /** The list as one paragraph, when a batch template puts a marker there (outbox.enqueueMailBatch). */
  list = properties.join('\n'),
): Mail {
  const one = properties.length === 1;
  return {
    to,
    ...renderMail({
      subject: one ? 'You have access to a new property in your investor portal' : 'You have access to new properties in your investor portal',
      greeting: name ? `Hello ${name},` : 'Hello,',
      blocks: [
        {
          kind: 'paragraph',
          text: one
            ? 'Everest Properties has given you access to the documents of this property:'
            : 'Everest Properties has given you access to the documents of these properties:',
        },
        { kind: 'paragraph', text: list },
        { kind: 'paragraph', text: 'Sign in to the investor portal to read them.' },
        { kind: 'button', label: 'Open the investor portal', url: portalUrl },
      ],
      note,
    }),
  };
}
