import { Migration } from '@mikro-orm/migrations';

/**
 * Mail a person waits for (a reset link) no longer queues behind a batch. Each message
 * is in a lane, transactional or bulk, that a worker loop of its own drains; the claim reads its
 * lane's due rows through one partial index, in the order they were due. Messages already
 * waiting are put in their lane: batch messages (an import's welcomes, reminders) and the new
 * document notices, known by their subject, are bulk.
 */
export class Migration20261127190000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "outbox_messages" add column "lane" text check ("lane" in ('transactional', 'bulk')) not null default 'transactional';`);
    this.addSql(`
      update "outbox_messages" set "lane" = 'bulk'
       where "status" <> 'sent' and ("template_id" is not null or "subject" like '% available in your investor portal');`);
    this.addSql('drop index if exists "outbox_messages_status_next_attempt_at_index";');
    this.addSql(`create index "outbox_messages_due_index" on "outbox_messages" ("lane", "next_attempt_at", "id") where "status" = 'pending';`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "outbox_messages_due_index";');
    this.addSql('create index "outbox_messages_status_next_attempt_at_index" on "outbox_messages" ("status", "next_attempt_at");');
    this.addSql('alter table "outbox_messages" drop column "lane";');
  }
}
