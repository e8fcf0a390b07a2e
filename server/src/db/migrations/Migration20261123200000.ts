import { Migration } from '@mikro-orm/migrations';

/**
 * Sign-out ends one session on every instance: its id is kept until the token would have
 * expired, and the users' session records (features/auth/session.ts) are dropped when it is.
 * The portal shows investors their previous sign-in, so users keep it beside the last one.
 */
export class Migration20261123200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "ended_sessions" ("session_id" varchar(32) not null, "user_id" int not null, "expires_at" timestamptz not null, constraint "ended_sessions_pkey" primary key ("session_id"));`);
    this.addSql(`create index "ended_sessions_user_id_index" on "ended_sessions" ("user_id");`);
    this.addSql(`alter table "ended_sessions" add constraint "ended_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`
      create trigger ended_sessions_notify_session_users after insert or update or delete or truncate on ended_sessions
        for each statement execute function notify_change('session_users_changed');`);
    this.addSql(`alter table "users" add column "previous_login_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" drop column "previous_login_at";`);
    this.addSql(`drop table if exists "ended_sessions" cascade;`);
  }
}
