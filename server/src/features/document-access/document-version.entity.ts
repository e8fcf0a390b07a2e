import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { StoredFile } from '../files/stored-file.entity';
import { User } from '../users/user.entity';

/**
 * Every file a document has published, version 1 first. The document's own row keeps
 * naming its current file and version; a correction adds the next row here and moves the
 * document to it, so that earlier files stay downloadable for administrators. Version 1 is
 * written by a trigger on each document table (migration 20261126140000), so every path that
 * inserts a document (uploads, batches, the seed) gets it; a deleted document's versions go with
 * it (same migration), and their files become the unreferenced-file sweep's.
 * `documentType` is 'property' or 'personal'; no foreign key, as `documentId` names either table.
 */
export const DocumentVersion = defineEntity({
  name: 'DocumentVersion',
  tableName: 'document_versions',
  uniques: [{ properties: ['documentType', 'documentId', 'version'] }],
  properties: {
    id: p.integer().primary(),
    documentType: p.string().length(20),
    documentId: p.integer(),
    version: p.integer(),
    file: () => p.manyToOne(StoredFile).deleteRule('restrict'),
    filename: p.string().length(255),
    uploadedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    uploadedAt: p.datetime(),
    /** Why this version corrects the one before; '' for none and for version 1. */
    note: p.text().default(''),
  },
});
export type IDocumentVersion = InferEntity<typeof DocumentVersion>;
