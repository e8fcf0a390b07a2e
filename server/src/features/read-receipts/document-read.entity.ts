import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/**
 * Who opened which document, first and last: one row per user and document, kept by a trigger
 * on `audit_events` (migration 20261125230000) from every preview and download, so that every
 * read path that writes its audit row feeds it, and the read-receipt views and the portal's
 * 'New' badge read one small row instead of aggregating the audit history.
 * `documentType` is 'property' or 'personal'; no foreign key, as `documentId` names either table.
 */
export const DocumentRead = defineEntity({
  name: 'DocumentRead',
  tableName: 'document_reads',
  uniques: [{ properties: ['user', 'documentType', 'documentId'] }],
  indexes: [{ properties: ['documentType', 'documentId'] }],
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    documentType: p.string().length(20),
    documentId: p.integer(),
    firstOpenedAt: p.datetime(),
    lastOpenedAt: p.datetime(),
    opens: p.integer().default(1),
    /**
     * The delegates who opened it on this user's behalf (the trigger files a read
     * through a share under its owner). Ids without a foreign key: a deleted delegate drops out
     * of the views, which join the users.
     */
    delegateIds: p.array<number>().columnType('int[]').default([]),
  },
});
export type IDocumentRead = InferEntity<typeof DocumentRead>;
