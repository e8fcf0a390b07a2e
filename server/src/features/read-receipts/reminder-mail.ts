import { siteFacts } from '@everest/fixtures/site';
import type { Mail } from '../mail/outbox';
import { renderMail } from '../mail/templates';

/** The fields of a reminder that differ per investor (enqueueMailBatch fills them in PostgreSQL). */
export const reminderFields = ['greeting', 'documents'] as const;
export type ReminderField = (typeof reminderFields)[number];

const note = `Questions? Contact Investor Relations at ${siteFacts.investorRelations.phone} or ${siteFacts.investorRelations.email}.`;

/**
 * The reminder an investor receives for documents they have not opened: one e-mail listing all of
 * them, one a line ('K-1 2025 — Sunset Terrace Apartments · Q1 2026'), and a link to the portal
 * carrying no token, like the new-document digest: a forwarded e-mail opens nothing.
 */
export function documentReminderMail(values: Record<ReminderField, string>, portalUrl: string): Omit<Mail, 'to'> {
  return renderMail({
    subject: 'Documents are waiting for you in your investor portal',
    greeting: values.greeting,
    blocks: [
      { kind: 'paragraph', text: 'Everest Properties has published documents for you that you have not opened yet:' },
      { kind: 'paragraph', text: values.documents },
      { kind: 'paragraph', text: "Sign in to the investor portal to read them under 'Your Documents'." },
      { kind: 'button', label: 'Open the investor portal', url: portalUrl },
    ],
    note,
  });
}
