import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { quarters } from '@everest/core/domain';
import { StoredFile } from '../files/stored-file.entity';
import { Property } from '../properties/property.entity';
import { User } from '../users/user.entity';

/** A quarterly document of a property; no property means the 'General' group. */
export const PropertyDocument = defineEntity({
  name: 'PropertyDocument',
  tableName: 'property_documents',
  indexes: [{ properties: ['property', 'year', 'quarter'] }],
  properties: {
    id: p.integer().primary(),
    title: p.string().length(200),
    property: () => p.manyToOne(Property).nullable().deleteRule('set null'),
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
    /** Uploaded with notifyLater: its e-mail waits for notify-documents (one digest per batch). */
    notificationPending: p.boolean().default(false),
  },
});
export type IPropertyDocument = InferEntity<typeof PropertyDocument>;
