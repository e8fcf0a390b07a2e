import { Migration } from '@mikro-orm/migrations';

/**
 * Batch e-mails (a bulk import's welcomes) keep one body in `outbox_templates` and only their own
 * field values per message; the worker renders them at send time. A message has either its parts
 * or a template with values, never neither.
 */
export class Migration20261125200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "outbox_templates" ("id" serial primary key, "text" text not null, "html" text not null,
        "field_marker" varchar(40) not null, "created_at" timestamptz not null);`);
    this.addSql(`
      alter table "outbox_messages"
        alter column "text" drop not null,
        alter column "html" drop not null,
        add column "template_id" int null,
        add column "field_values" jsonb null;`);
    this.addSql(`
      alter table "outbox_messages" add constraint "outbox_messages_template_id_foreign"
        foreign key ("template_id") references "outbox_templates" ("id") on update cascade on delete set null;`);
    this.addSql('create index "outbox_messages_template_id_index" on "outbox_messages" ("template_id");');
    this.addSql(`
      alter table "outbox_messages" add constraint "outbox_messages_body_check"
        check (("text" is not null and "html" is not null) or ("template_id" is not null and "field_values" is not null));`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "outbox_messages" drop constraint "outbox_messages_body_check";');
    this.addSql('alter table "outbox_messages" drop column "template_id", drop column "field_values";');
    this.addSql('drop table "outbox_templates";');
  }
}
