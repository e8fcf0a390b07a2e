import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { documentCategories, quarters } from '@everest/core/domain';
import { StoredFile } from '../files/stored-file.entity';
import { User } from '../users/user.entity';

/**
 * A personal document (tax package, agreement, statement) assigned to one investor. The code says
 * "personal document" everywhere; the table keeps its first name, `user_documents`, as do the
 * API's paths and the activity log's `user-document` subjects, because renaming them would take a
 * migration of its triggers, indexes and stored audit rows, and break the spec's URLs, for no
 * reader's gain.
 */
export const PersonalDocument = defineEntity({
  name: 'PersonalDocument',
  tableName: 'user_documents',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    title: p.string().length(200),
    documentCategory: p.enum([...documentCategories]),
    description: p.text().default(''),
    documentDate: p.date().nullable(),
    tags: p.string().length(500).default(''),
    year: p.integer(),
    quarter: p.enum([...quarters]),
    filename: p.string().length(255),
    file: () => p.manyToOne(StoredFile).deleteRule('restrict'),
    uploadedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    uploadedAt: p.datetime().onCreate(() => new Date()),
    /** The current version: 1 until a correction; its file and name are the row's. */
    version: p.integer().default(1),
    /** When the current version corrected the one before; null while never corrected. */
    correctedAt: p.datetime().nullable(),
    /** Published with the bulk upload's notifyLater: its e-mail waits for notify-documents. */
    notificationPending: p.boolean().default(false),
  },
});
export type IPersonalDocument = InferEntity<typeof PersonalDocument>;
