import { Migration } from '@mikro-orm/migrations';

/**
 * The account's signed-in sessions, as Manage Profile lists them: which device and
 * address, first seen and last used. Written at sign-in and by the session check at most once a
 * minute per session; no trigger, since no cache depends on it (ending a session writes
 * ended_sessions, whose trigger already tells every instance).
 */
export class Migration20261127160000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sessions" ("session_id" varchar(32) not null, "public_id" varchar(22) not null, "user_id" int not null, "token_version" int not null, "device" varchar(100) not null default '', "client_address" varchar(64) not null default '', "first_seen_at" timestamptz not null, "last_used_at" timestamptz not null, "expires_at" timestamptz not null, constraint "sessions_pkey" primary key ("session_id"));`);
    this.addSql(`alter table "sessions" add constraint "sessions_public_id_unique" unique ("public_id");`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`create index "sessions_expires_at_index" on "sessions" ("expires_at");`);
    this.addSql(`alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "sessions" cascade;');
  }
}
