import { Migration } from '@mikro-orm/migrations';

/**
 * Read receipts. `document_reads` holds, per user and document, the first and last
 * preview or download and how many: a trigger on `audit_events` keeps it, so every read path
 * that writes its audit row (the download route, today and later) feeds it in the same
 * transaction, and the existing rows are carried over here. Its first row for a user and a
 * document raises `document_lists_changed`, since the portal's cached list shows 'New' until
 * then; later reads of the same document change nothing the list shows and raise nothing.
 * `document_reminders` holds when each investor was last reminded of each document.
 */
export class Migration20261125230000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "document_reads" ("id" serial primary key, "user_id" int not null, "document_type" varchar(20) not null, "document_id" int not null, "first_opened_at" timestamptz not null, "last_opened_at" timestamptz not null, "opens" int not null default 1);`);
    this.addSql(`create index "document_reads_document_type_document_id_index" on "document_reads" ("document_type", "document_id");`);
    this.addSql(`alter table "document_reads" add constraint "document_reads_user_id_document_type_document_id_unique" unique ("user_id", "document_type", "document_id");`);
    this.addSql(`alter table "document_reads" add constraint "document_reads_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "document_reminders" ("id" serial primary key, "user_id" int not null, "document_type" varchar(20) not null, "document_id" int not null, "reminded_at" timestamptz not null);`);
    this.addSql(`create index "document_reminders_document_type_document_id_index" on "document_reminders" ("document_type", "document_id");`);
    this.addSql(`alter table "document_reminders" add constraint "document_reminders_user_id_document_type_document_id_unique" unique ("user_id", "document_type", "document_id");`);
    this.addSql(`alter table "document_reminders" add constraint "document_reminders_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`
      insert into document_reads (user_id, document_type, document_id, first_opened_at, last_opened_at, opens)
      select user_id, document_type, document_id, min(created_at), max(created_at), count(*)
        from audit_events
       where action in ('preview', 'download') and user_id is not null and document_id is not null
         and document_type in ('property', 'personal')
       group by user_id, document_type, document_id;`);
    this.addSql(`
      create function record_document_read() returns trigger language plpgsql as $$
      begin
        insert into document_reads (user_id, document_type, document_id, first_opened_at, last_opened_at, opens)
        values (new.user_id, new.document_type, new.document_id, new.created_at, new.created_at, 1)
        on conflict (user_id, document_type, document_id) do update
          set last_opened_at = greatest(document_reads.last_opened_at, excluded.last_opened_at),
              opens = document_reads.opens + 1;
        return null;
      end $$;`);
    this.addSql(`
      create trigger audit_events_record_document_read after insert on audit_events for each row
        when (new.action in ('preview', 'download') and new.user_id is not null and new.document_id is not null
              and new.document_type in ('property', 'personal'))
        execute function record_document_read();`);
    // For each row: a statement trigger would also fire for the upserts that only update.
    this.addSql(`
      create trigger document_reads_notify_document_lists after insert on document_reads
        for each row execute function notify_change('document_lists_changed');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists document_reads_notify_document_lists on document_reads;');
    this.addSql('drop trigger if exists audit_events_record_document_read on audit_events;');
    this.addSql('drop function if exists record_document_read();');
    this.addSql('drop table if exists "document_reminders" cascade;');
    this.addSql('drop table if exists "document_reads" cascade;');
  }
}
