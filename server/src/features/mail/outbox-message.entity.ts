import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const outboxStatuses = ['pending', 'sent', 'failed'] as const;

/**
 * An e-mail waiting to be delivered. It is written in the transaction of the action that caused
 * it, so an SMTP outage delays mail but never loses it.
 */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox_messages',
  indexes: [{ properties: ['status', 'nextAttemptAt'] }],
  properties: {
    id: p.integer().primary(),
    recipient: p.string().length(254),
    subject: p.string().length(300),
    text: p.text(),
    html: p.text(),
    replyTo: p.string().length(254).nullable(),
    status: p.enum([...outboxStatuses]).default('pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().onCreate(() => new Date()),
    lastError: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    sentAt: p.datetime().nullable(),
  },
});
export type IOutboxMessage = InferEntity<typeof OutboxMessage>;
