import { Migration } from '@mikro-orm/migrations';

/**
 * Two-step sign-in: each user's authenticator app, their backup codes (hashed) and
 * the short-lived challenges of sign-ins waiting for a code. Session checks know whether a user
 * has a second step (features/auth/session.ts), so turning it on or off drops their records.
 */
export class Migration20261125220000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "second_steps" ("id" serial primary key, "user_id" int not null, "totp_secret" text null, "totp_pending_secret" text null, "totp_enabled_at" timestamptz null, "totp_last_time_step" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "second_steps" add constraint "second_steps_user_id_unique" unique ("user_id");`);
    this.addSql(`alter table "second_steps" add constraint "second_steps_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "backup_codes" ("id" serial primary key, "user_id" int not null, "code_hash" varchar(64) not null, "used_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`create index "backup_codes_user_id_index" on "backup_codes" ("user_id");`);
    this.addSql(`alter table "backup_codes" add constraint "backup_codes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "second_step_challenges" ("id" serial primary key, "user_id" int not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`create index "second_step_challenges_user_id_index" on "second_step_challenges" ("user_id");`);
    this.addSql(`alter table "second_step_challenges" add constraint "second_step_challenges_token_hash_unique" unique ("token_hash");`);
    this.addSql(`alter table "second_step_challenges" add constraint "second_step_challenges_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`
      create trigger second_steps_notify_session_users
        after insert or update of totp_enabled_at or delete or truncate on second_steps
        for each statement execute function notify_change('session_users_changed');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "second_step_challenges" cascade;`);
    this.addSql(`drop table if exists "backup_codes" cascade;`);
    this.addSql(`drop table if exists "second_steps" cascade;`);
  }
}
