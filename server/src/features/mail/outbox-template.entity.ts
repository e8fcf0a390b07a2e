import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The shared body of a batch of e-mails (see `enqueueMailBatch`): the text and HTML parts with a
 * marker in place of each field. Each message of the batch keeps only its own values, and the
 * outbox worker puts them in at send time, so an import that welcomes 5,000 investors writes one
 * body instead of 5,000.
 */
export const OutboxTemplate = defineEntity({
  name: 'OutboxTemplate',
  tableName: 'outbox_templates',
  properties: {
    id: p.integer().primary(),
    text: p.text(),
    html: p.text(),
    /** Field i appears in the parts as `${fieldMarker}${i}x`: random letters and digits no escaping alters. */
    fieldMarker: p.string().length(40),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IOutboxTemplate = InferEntity<typeof OutboxTemplate>;
