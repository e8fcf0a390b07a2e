import { Migration } from '@mikro-orm/migrations';

/**
 * E-mail changes by confirmation: a new address asked for in Manage Profile waits here
 * until the link sent to it is opened, and the old address's undo link can put it back. Only the
 * tokens' SHA-256 are stored.
 */
export class Migration20261127150000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "email_changes" ("id" serial primary key, "user_id" int not null, "old_email" varchar(254) not null, "new_email" varchar(254) not null, "confirm_token_hash" varchar(64) not null, "undo_token_hash" varchar(64) not null, "confirm_expires_at" timestamptz not null, "undo_expires_at" timestamptz not null, "confirmed_at" timestamptz null, "cancelled_at" timestamptz null, "undone_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`create index "email_changes_user_id_index" on "email_changes" ("user_id");`);
    this.addSql(`alter table "email_changes" add constraint "email_changes_confirm_token_hash_unique" unique ("confirm_token_hash");`);
    this.addSql(`alter table "email_changes" add constraint "email_changes_undo_token_hash_unique" unique ("undo_token_hash");`);
    this.addSql(`alter table "email_changes" add constraint "email_changes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "email_changes" cascade;');
  }
}
