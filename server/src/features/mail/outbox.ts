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

/**
 * Gives every e-mail that ran out of attempts a fresh set (the `mail:retry` command), once an
 * operator has fixed what stopped them (SMTP settings, a full mailbox). Answers how many.
 */
export async function retryFailedMail(em: EntityManager, now = new Date()): Promise<number> {
  return em.nativeUpdate(OutboxMessage, { status: 'failed' }, { status: 'pending', attempts: 0, nextAttemptAt: now });
}
