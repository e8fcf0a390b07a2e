import { Migration } from '@mikro-orm/migrations';

export class Migration20261121233022 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "captcha_solutions" ("signature" varchar(128) not null, "expires_at" timestamptz not null, constraint "captcha_solutions_pkey" primary key ("signature"));`);
    this.addSql(`create index "captcha_solutions_expires_at_index" on "captcha_solutions" ("expires_at");`);

    this.addSql(`create table "contact_messages" ("id" serial primary key, "first_name" varchar(100) not null, "last_name" varchar(100) not null, "email" varchar(254) not null, "subject" varchar(200) not null, "message" text not null, "client_address" varchar(64) not null default '', "created_at" timestamptz not null);`);

    this.addSql(`create table "outbox_messages" ("id" serial primary key, "recipient" varchar(254) not null, "subject" varchar(300) not null, "text" text not null, "html" text not null, "reply_to" varchar(254) null, "status" text check ("status" in ('pending', 'sent', 'failed')) not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "last_error" text null, "created_at" timestamptz not null, "sent_at" timestamptz null);`);
    this.addSql(`create index "outbox_messages_status_next_attempt_at_index" on "outbox_messages" ("status", "next_attempt_at");`);

    this.addSql(`create table "properties" ("id" serial primary key, "name" varchar(200) not null, "type" text check ("type" in ('residential', 'self-storage', 'retail', 'headquarters', 'mixed-use', 'other')) not null default 'residential', "status" text check ("status" in ('active', 'sold', 'inactive')) not null default 'active', "address" varchar(200) not null default '', "city" varchar(100) not null default '', "state" varchar(50) not null default '', "zip_code" varchar(20) not null default '', "phone" varchar(40) null, "website" varchar(500) null, "latitude" numeric(9,6) null, "longitude" numeric(9,6) null, "investor_relations" boolean not null default true, "image" varchar(500) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "properties" add constraint "properties_name_unique" unique ("name");`);
    this.addSql(`create index "properties_status_index" on "properties" ("status");`);

    this.addSql(`create table "rate_limit_counters" ("key" varchar(300) not null, "window_start" timestamptz not null, "count" int not null default 0, constraint "rate_limit_counters_pkey" primary key ("key", "window_start"));`);

    this.addSql(`create table "stored_files" ("id" serial primary key, "sha256" varchar(64) not null, "size" bigint not null, "content_type" varchar(200) not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "stored_files" add constraint "stored_files_sha256_unique" unique ("sha256");`);

    this.addSql(`create table "users" ("id" serial primary key, "email" varchar(254) not null, "password_hash" varchar(255) not null, "first_name" varchar(100) not null default '', "last_name" varchar(100) not null default '', "entity" varchar(200) not null default '', "street_address" varchar(200) not null default '', "city" varchar(100) not null default '', "state" varchar(50) not null default '', "zip_code" varchar(20) not null default '', "role" text check ("role" in ('user', 'administrator', 'everest_employee')) not null default 'user', "is_active" boolean not null default true, "last_login_at" timestamptz null, "token_version" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(`create table "property_documents" ("id" serial primary key, "title" varchar(200) not null, "property_id" int null, "year" int not null, "quarter" text check ("quarter" in ('Q1', 'Q2', 'Q3', 'Q4')) not null, "filename" varchar(255) not null, "file_id" int not null, "uploaded_by_id" int null, "uploaded_at" timestamptz not null);`);
    this.addSql(`create index "property_documents_property_id_year_quarter_index" on "property_documents" ("property_id", "year", "quarter");`);

    this.addSql(`create table "property_access" ("id" serial primary key, "user_id" int not null, "property_id" int not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "property_access_property_id_index" on "property_access" ("property_id");`);
    this.addSql(`alter table "property_access" add constraint "property_access_user_id_property_id_unique" unique ("user_id", "property_id");`);

    this.addSql(`create table "password_reset_tokens" ("id" serial primary key, "user_id" int not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`create index "password_reset_tokens_user_id_index" on "password_reset_tokens" ("user_id");`);
    this.addSql(`alter table "password_reset_tokens" add constraint "password_reset_tokens_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "audit_events" ("id" serial primary key, "user_id" int null, "action" varchar(50) not null, "document_type" varchar(20) null, "document_id" int null, "client_address" varchar(64) not null default '', "details" jsonb null, "created_at" timestamptz not null);`);
    this.addSql(`create index "audit_events_document_type_document_id_index" on "audit_events" ("document_type", "document_id");`);

    this.addSql(`create table "user_documents" ("id" serial primary key, "user_id" int not null, "title" varchar(200) not null, "document_category" text check ("document_category" in ('tax', 'personal', 'legal', 'financial', 'other')) not null, "description" text not null default '', "document_date" date null, "tags" varchar(500) not null default '', "year" int not null, "quarter" text check ("quarter" in ('Q1', 'Q2', 'Q3', 'Q4')) not null, "filename" varchar(255) not null, "file_id" int not null, "uploaded_by_id" int null, "uploaded_at" timestamptz not null);`);
    this.addSql(`create index "user_documents_user_id_index" on "user_documents" ("user_id");`);

    this.addSql(`alter table "property_documents" add constraint "property_documents_property_id_foreign" foreign key ("property_id") references "properties" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "property_documents" add constraint "property_documents_file_id_foreign" foreign key ("file_id") references "stored_files" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "property_documents" add constraint "property_documents_uploaded_by_id_foreign" foreign key ("uploaded_by_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "property_access" add constraint "property_access_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "property_access" add constraint "property_access_property_id_foreign" foreign key ("property_id") references "properties" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "password_reset_tokens" add constraint "password_reset_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "audit_events" add constraint "audit_events_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "user_documents" add constraint "user_documents_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "user_documents" add constraint "user_documents_file_id_foreign" foreign key ("file_id") references "stored_files" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "user_documents" add constraint "user_documents_uploaded_by_id_foreign" foreign key ("uploaded_by_id") references "users" ("id") on update cascade on delete set null;`);
  }

}
