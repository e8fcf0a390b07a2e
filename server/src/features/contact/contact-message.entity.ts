import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const ContactMessage = defineEntity({
  name: 'ContactMessage',
  tableName: 'contact_messages',
  properties: {
    id: p.integer().primary(),
    firstName: p.string().length(100),
    lastName: p.string().length(100),
    email: p.string().length(254),
    subject: p.string().length(200),
    message: p.text(),
    clientAddress: p.string().length(64).default(''),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IContactMessage = InferEntity<typeof ContactMessage>;
