import { Migration } from '@mikro-orm/migrations';

/**
 * Shared access. `shares` holds what an investor (the owner) lets another account (the
 * delegate) read: personal documents by scope and categories, property documents by scope and,
 * for 'properties', the chosen ones in `share_properties` (gone with their property). At most one
 * share per owner and delegate is not revoked: a second one would be ambiguous. Whether a share
 * is live (not revoked, not past `ends_on`, its owner an active investor) is decided at each read
 * (features/document-access/document-policy.ts), so nothing here runs on a timer.
 *
 * Users get the role 'delegate' (accounts a share made). A read through a share is audited under
 * the delegate with the owner in `details.onBehalfOf`; the read receipts count it as the owner's
 * read, so `record_document_read` files it under the owner and keeps who read it for them in
 * `document_reads.delegate_ids`.
 */
export class Migration20261127200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" drop constraint if exists "users_role_check";`);
    this.addSql(`alter table "users" add constraint "users_role_check" check ("role" in ('user', 'administrator', 'everest_employee', 'delegate'));`);

    this.addSql(`create table "shares" ("id" serial primary key, "owner_id" int not null, "delegate_id" int not null, "personal_scope" text check ("personal_scope" in ('all', 'categories', 'none')) not null, "categories" text[] not null default '{}', "property_scope" text check ("property_scope" in ('all', 'properties', 'none')) not null, "ends_on" date null, "notify" boolean not null default false, "created_at" timestamptz not null, "revoked_at" timestamptz null, "revoked_by_id" int null);`);
    this.addSql(`create index "shares_owner_id_index" on "shares" ("owner_id");`);
    this.addSql(`create index "shares_delegate_id_index" on "shares" ("delegate_id");`);
    this.addSql(`create unique index "shares_live_unique" on "shares" ("owner_id", "delegate_id") where "revoked_at" is null;`);
    this.addSql(`alter table "shares" add constraint "shares_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shares" add constraint "shares_delegate_id_foreign" foreign key ("delegate_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "shares" add constraint "shares_revoked_by_id_foreign" foreign key ("revoked_by_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`create table "share_properties" ("id" serial primary key, "share_id" int not null, "property_id" int not null);`);
    this.addSql(`create index "share_properties_property_id_index" on "share_properties" ("property_id");`);
    this.addSql(`alter table "share_properties" add constraint "share_properties_share_id_property_id_unique" unique ("share_id", "property_id");`);
    this.addSql(`alter table "share_properties" add constraint "share_properties_share_id_foreign" foreign key ("share_id") references "shares" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "share_properties" add constraint "share_properties_property_id_foreign" foreign key ("property_id") references "properties" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "document_reads" add column "delegate_ids" int[] not null default '{}';`);
    this.addSql(`
      create or replace function record_document_read() returns trigger language plpgsql as $$
      declare
        owner_id int := (new.details->'onBehalfOf'->>'userId')::int;
        delegates int[] := case when owner_id is null then '{}'::int[] else array[new.user_id] end;
      begin
        insert into document_reads (user_id, document_type, document_id, first_opened_at, last_opened_at, opens, delegate_ids)
        values (coalesce(owner_id, new.user_id), new.document_type, new.document_id, new.created_at, new.created_at, 1, delegates)
        on conflict (user_id, document_type, document_id) do update
          set last_opened_at = greatest(document_reads.last_opened_at, excluded.last_opened_at),
              opens = document_reads.opens + 1,
              delegate_ids = case when excluded.delegate_ids <@ document_reads.delegate_ids then document_reads.delegate_ids
                                  else document_reads.delegate_ids || excluded.delegate_ids end;
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`
      create or replace function record_document_read() returns trigger language plpgsql as $$
      begin
        insert into document_reads (user_id, document_type, document_id, first_opened_at, last_opened_at, opens)
        values (new.user_id, new.document_type, new.document_id, new.created_at, new.created_at, 1)
        on conflict (user_id, document_type, document_id) do update
          set last_opened_at = greatest(document_reads.last_opened_at, excluded.last_opened_at),
              opens = document_reads.opens + 1;
        return null;
      end $$;`);
    this.addSql(`alter table "document_reads" drop column if exists "delegate_ids";`);
    this.addSql('drop table if exists "share_properties" cascade;');
    this.addSql('drop table if exists "shares" cascade;');
    this.addSql(`delete from "users" where "role" = 'delegate';`);
    this.addSql(`alter table "users" drop constraint if exists "users_role_check";`);
    this.addSql(`alter table "users" add constraint "users_role_check" check ("role" in ('user', 'administrator', 'everest_employee'));`);
  }
}
