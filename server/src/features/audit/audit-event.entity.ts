import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/** Partial indexes over staff changes (not reads), by (nothing | person | action | both), then newest first. */
function activityIndexes() {
  const staffChange = `where "action" not in ('preview', 'download')`;
  const index = (name: string, columns: string) => ({
    name,
    expression: `create index "${name}" on "audit_events" (${columns}"created_at" desc, "id" desc) ${staffChange}`,
  });
  return [
    index('audit_events_activity_index', ''),
    index('audit_events_activity_user_index', '"user_id", '),
    index('audit_events_activity_action_index', '"action", '),
    index('audit_events_activity_user_action_index', '"user_id", "action", '),
  ];
}

/**
 * Who did what to which document, and from where: the basis for read receipts and for
 * answering an investor's "who opened my K-1?".
 */
export const AuditEvent = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_events',
  indexes: [
    { properties: ['documentType', 'documentId'] },
    // Uploads under an Idempotency-Key: a retry finds its first answer by (user, key).
    {
      name: 'audit_events_idempotency_key_index',
      expression: `create index "audit_events_idempotency_key_index" on "audit_events" ("user_id", (details->'after'->>'idempotencyKey')) where (details->'after'->>'idempotencyKey') is not null`,
    },
    // The Activity tab: staff changes only, newest first (migration 20261127180000).
    ...activityIndexes(),
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
