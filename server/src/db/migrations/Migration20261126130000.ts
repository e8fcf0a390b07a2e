import { Migration } from '@mikro-orm/migrations';

/**
 * Passkeys (WebAuthn) as a second step: each user's registered credentials, and the
 * short-lived single-use challenges of registrations and sign-ins, kept in the database so that
 * a ceremony begun on one instance can end on another. Adding or removing a passkey changes
 * whether a user has a second step, which session records carry (features/auth/session.ts).
 */
export class Migration20261126130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "passkeys" ("id" serial primary key, "user_id" int not null, "name" varchar(60) not null, "credential_id" varchar(1400) not null, "public_key" bytea not null, "counter" bigint not null default 0, "transports" text[] not null default '{}', "created_at" timestamptz not null, "last_used_at" timestamptz null);`);
    this.addSql(`create index "passkeys_user_id_index" on "passkeys" ("user_id");`);
    this.addSql(`alter table "passkeys" add constraint "passkeys_credential_id_unique" unique ("credential_id");`);
    this.addSql(`alter table "passkeys" add constraint "passkeys_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "passkey_challenges" ("id" serial primary key, "user_id" int not null, "purpose" varchar(20) not null, "challenge" varchar(100) not null, "expires_at" timestamptz not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "passkey_challenges_user_id_index" on "passkey_challenges" ("user_id");`);
    this.addSql(`alter table "passkey_challenges" add constraint "passkey_challenges_challenge_unique" unique ("challenge");`);
    this.addSql(`alter table "passkey_challenges" add constraint "passkey_challenges_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`
      create trigger passkeys_notify_session_users
        after insert or delete or truncate on passkeys
        for each statement execute function notify_change('session_users_changed');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "passkey_challenges" cascade;`);
    this.addSql(`drop table if exists "passkeys" cascade;`);
  }
}
