import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxMessage } from './outbox-message.entity';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
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
  });
}
