import { Migration } from '@mikro-orm/migrations';

/**
 * Identifiers administrators add to investors for content matching (features/users,
 * investor-identifiers.ts). The unique `normalized` keeps two accounts from sharing one under a
 * race; the user list shows them, so a change drops its cache.
 */
export class Migration20261203000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "investor_identifiers" ("id" serial primary key, "user_id" int not null, "identifier" varchar(200) not null, "normalized" varchar(200) not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "investor_identifiers_user_id_index" on "investor_identifiers" ("user_id");`);
    this.addSql(`alter table "investor_identifiers" add constraint "investor_identifiers_normalized_unique" unique ("normalized");`);
    this.addSql(`alter table "investor_identifiers" add constraint "investor_identifiers_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`
      create trigger investor_identifiers_notify_user_lists after insert or update or delete or truncate on investor_identifiers
        for each statement execute function notify_change('user_lists_changed');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "investor_identifiers" cascade;');
  }
}
