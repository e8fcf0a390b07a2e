import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A file in the content-addressed store. The row is written only after the bytes are safely
 * renamed into place, so a row never points at a file that was not stored.
 */
export const StoredFile = defineEntity({
  name: 'StoredFile',
  tableName: 'stored_files',
  properties: {
    id: p.integer().primary(),
    sha256: p.string().length(64).unique(),
    size: p.bigint('number'),
    contentType: p.string().length(200),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IStoredFile = InferEntity<typeof StoredFile>;
