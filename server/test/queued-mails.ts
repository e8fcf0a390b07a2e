import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { renderOutboxMessage } from '../src/features/mail/outbox';
import { OutboxMessage, type IOutboxMessage } from '../src/features/mail/outbox-message.entity';

export interface QueuedMail {
  id: number;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  replyTo: string | null;
  status: IOutboxMessage['status'];
}

/** The outbox's e-mails as the worker would send them (batch messages rendered), oldest first. */
export async function queuedMails(em: EntityManager, where: FilterQuery<IOutboxMessage> = {}): Promise<QueuedMail[]> {
  const rows = await em.find(OutboxMessage, where, { orderBy: { id: 'asc' }, populate: ['template'] });
  return rows.map((row) => ({
    id: row.id,
    recipient: row.recipient,
    subject: row.subject,
    ...renderOutboxMessage(row, row.template ?? null),
    replyTo: row.replyTo ?? null,
    status: row.status,
  }));
}
