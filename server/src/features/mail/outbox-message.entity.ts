import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { OutboxTemplate } from './outbox-template.entity';

export const outboxStatuses = ['pending', 'sent', 'failed'] as const;

/**
 * The outbox's lanes, in the order they are served: mail a person is waiting for (a reset link,
 * a second-step notice, a contact message) never queues behind a batch (an import's welcomes, a
 * quarter's notices, reminders), which has a lane and a worker loop of its own.
 */
export const mailLanes = ['transactional', 'bulk'] as const;
export type MailLane = (typeof mailLanes)[number];

/**
 * An e-mail waiting to be delivered. It is written in the transaction of the action that caused
 * it, so an SMTP outage delays mail but never loses it.
 */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox_messages',
  // The workers' claim, per lane: the lane's oldest due rows, without reading the other lane's.
  indexes: [
    {
      name: 'outbox_messages_due_index',
      expression: `create index "outbox_messages_due_index" on "outbox_messages" ("lane", "next_attempt_at", "id") where "status" = 'pending'`,
    },
  ],
  // Its own parts, or a batch template with its values: never neither.
  checks: [
    {
      name: 'outbox_messages_body_check',
      expression: '(text is not null and html is not null) or (template_id is not null and field_values is not null)',
    },
  ],
  properties: {
    id: p.integer().primary(),
    recipient: p.string().length(254),
    subject: p.string().length(300),
    /** The parts as sent; null when the message is one of a batch (`template` and `fieldValues`). */
    text: p.text().nullable(),
    html: p.text().nullable(),
    template: () => p.manyToOne(OutboxTemplate).nullable().index(),
    /** The batch message's field values, by field number: [text, already escaped HTML]. */
    fieldValues: p.json<[string, string][]>().nullable(),
    replyTo: p.string().length(254).nullable(),
    status: p.enum([...outboxStatuses]).default('pending'),
    lane: p.enum([...mailLanes]).default('transactional'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().onCreate(() => new Date()),
    lastError: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    sentAt: p.datetime().nullable(),
  },
});
export type IOutboxMessage = InferEntity<typeof OutboxMessage>;
