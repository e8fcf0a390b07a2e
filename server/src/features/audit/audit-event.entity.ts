import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/**
 * Who did what to which document, and from where: the basis for read receipts and for
 * answering an investor's "who opened my K-1?".
 */
export const AuditEvent = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_events',
  indexes: [
    { properties: ['documentType', 'documentId'] },
    // Uploads under an Idempotency-Key (issue 32): a retry finds its first answer by (user, key).
    {
      name: 'audit_events_idempotency_key_index',
      expression: `create index "audit_events_idempotency_key_index" on "audit_events" ("user_id", (details->'after'->>'idempotencyKey')) where (details->'after'->>'idempotencyKey') is not null`,
    },
  ],
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).nullable().deleteRule('set null'),
    action: p.string().length(50),
    documentType: p.string().length(20).nullable(),
    documentId: p.integer().nullable(),
    clientAddress: p.string().length(64).default(''),
    details: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IAuditEvent = InferEntity<typeof AuditEvent>;
