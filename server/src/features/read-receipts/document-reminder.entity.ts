import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/**
 * When an investor was last reminded of a document they had not opened: one row per investor
 * and document, so that the 7-day rule is one conditional upsert (read-receipts.service.ts).
 * Each reminder call is also in the audit table, with who sent it.
 */
export const DocumentReminder = defineEntity({
  name: 'DocumentReminder',
  tableName: 'document_reminders',
  uniques: [{ properties: ['user', 'documentType', 'documentId'] }],
  indexes: [{ properties: ['documentType', 'documentId'] }],
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    documentType: p.string().length(20),
    documentId: p.integer(),
    remindedAt: p.datetime(),
  },
});
export type IDocumentReminder = InferEntity<typeof DocumentReminder>;
