import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeBound } from '../../db/bound-query';
import { OutboxMessage, type IOutboxMessage, type MailLane } from './outbox-message.entity';
import type { IOutboxTemplate } from './outbox-template.entity';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /**
   * 'bulk' for a notice that goes to many people at once and that nobody stands waiting for (new
   * documents), said by its template; anything else queued one at a time is 'transactional' and
   * is sent first. A batch (`enqueueMailBatch`) is always bulk.
   */
  lane?: MailLane;
}

/**
 * Queues an e-mail in the caller's unit of work: it is committed with the action that caused it
 * (or not at all), and the outbox worker delivers it with retries. Never send mail directly.
 */
export function enqueueMail(em: EntityManager, mail: Mail): void {
  em.create(OutboxMessage, {
    recipient: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    replyTo: mail.replyTo ?? null,
    lane: mail.lane ?? 'transactional',
  });
}

/**
 * Gives every e-mail that ran out of attempts a fresh set (the `mail:retry` command), once an
 * operator has fixed what stopped them (SMTP settings, a full mailbox). Answers how many.
 */
export async function retryFailedMail(em: EntityManager, now = new Date()): Promise<number> {
  return em.nativeUpdate(OutboxMessage, { status: 'failed' }, { status: 'pending', attempts: 0, nextAttemptAt: now });
}

/** A value put into a batch e-mail: as the plain-text part shows it, and as the HTML part does. */
export interface MailValue {
  text: string;
  /** Already escaped for HTML, exactly as the template's own rendering would escape it. */
  html: string;
}

/** One recipient of a batch, with the values of the template's fields. */
export interface BatchRecipient<F extends string> {
  to: string;
  values: Record<F, MailValue>;
}

/**
 * Queues one e-mail per recipient in a single statement, in the caller's transaction. The
 * template is rendered once with a marker in each field and stored once (`outbox_templates`);
 * each message keeps only its values, and the worker puts them in at send time
 * (`renderOutboxMessage`), so 10,000 e-mails write a few hundred kilobytes instead of 30 MB of
 * HTML. The subject may not hold a field. A batch is bulk mail: it waits behind transactional mail.
 */
export async function enqueueMailBatch<F extends string>(
  em: EntityManager,
  fields: readonly F[],
  render: (values: Record<F, string>) => Mail,
  recipients: readonly BatchRecipient<F>[],
): Promise<void> {
  if (recipients.length === 0) return;
  const fieldMarker = `mk${randomBytes(9).toString('hex')}f`;
  const template = render(Object.fromEntries(fields.map((field, i) => [field, `${fieldMarker}${i}x`])) as Record<F, string>);
  if (template.subject.includes(fieldMarker)) throw new Error('A batch e-mail subject cannot hold a field.');
  const rows = recipients.map((recipient) => ({
    recipient: recipient.to,
    field_values: fields.map((field) => [recipient.values[field].text, recipient.values[field].html]),
  }));
  await executeBound(
    em,
    `with template as (
       insert into outbox_templates (text, html, field_marker, created_at) values (?, ?, ?, now()) returning id
     )
     insert into outbox_messages (recipient, subject, template_id, field_values, reply_to, status, lane, attempts, next_attempt_at, created_at)
     select r.recipient, ?, template.id, r.field_values, ?, 'pending', 'bulk', 0, now(), now()
       from template, jsonb_to_recordset(?::jsonb) as r(recipient text, field_values jsonb)`,
    [template.text, template.html, fieldMarker, template.subject, template.replyTo ?? null, JSON.stringify(rows)],
  );
}

/**
 * A queued message's text and HTML parts: its own, or its batch template with its field values
 * put in. One pass per part, so a value is never searched for another field's marker.
 */
export function renderOutboxMessage(
  message: Pick<IOutboxMessage, 'text' | 'html' | 'fieldValues'>,
  template: Pick<IOutboxTemplate, 'text' | 'html' | 'fieldMarker'> | null,
): { text: string; html: string } {
  if (message.text != null && message.html != null) return { text: message.text, html: message.html };
  if (!template || !message.fieldValues) throw new Error('A batch e-mail lost its template or its values.');
  const values = message.fieldValues;
  const marker = new RegExp(`${template.fieldMarker}(\\d+)x`, 'g');
  const fill = (part: 0 | 1) => (_: string, field: string) => values[Number(field)]?.[part] ?? '';
  return { text: template.text.replace(marker, fill(0)), html: template.html.replace(marker, fill(1)) };
}
