import { Migration } from '@mikro-orm/migrations';

/**
 * Corrected documents. `document_versions` keeps every file a document has
 * published; the document rows keep naming the current one, with its `version` and, once
 * corrected, `corrected_at`. Version 1 of every document is written by a trigger on insert, so
 * every path that creates documents (single and batch uploads, the seed, the tests) has it; the
 * existing documents get theirs here. A deleted document's versions are deleted with it, so that
 * their files become the unreferenced-file sweep's like the document's own.
 */
export class Migration20261126140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "document_versions" ("id" serial primary key, "document_type" varchar(20) not null, "document_id" int not null, "version" int not null, "file_id" int not null, "filename" varchar(255) not null, "uploaded_by_id" int null, "uploaded_at" timestamptz not null, "note" text not null default '');`);
    this.addSql(`alter table "document_versions" add constraint "document_versions_document_type_document_id_version_unique" unique ("document_type", "document_id", "version");`);
    this.addSql(`alter table "document_versions" add constraint "document_versions_file_id_foreign" foreign key ("file_id") references "stored_files" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "document_versions" add constraint "document_versions_uploaded_by_id_foreign" foreign key ("uploaded_by_id") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "property_documents" add column "version" int not null default 1, add column "corrected_at" timestamptz null;`);
    this.addSql(`alter table "user_documents" add column "version" int not null default 1, add column "corrected_at" timestamptz null;`);

    this.addSql(`
      insert into document_versions (document_type, document_id, version, file_id, filename, uploaded_by_id, uploaded_at)
      select 'property', id, 1, file_id, filename, uploaded_by_id, uploaded_at from property_documents
      union all
      select 'personal', id, 1, file_id, filename, uploaded_by_id, uploaded_at from user_documents;`);
    this.addSql(`
      create function record_first_document_version() returns trigger language plpgsql as $$
      begin
        insert into document_versions (document_type, document_id, version, file_id, filename, uploaded_by_id, uploaded_at)
        values (tg_argv[0], new.id, new.version, new.file_id, new.filename, new.uploaded_by_id, new.uploaded_at);
        return null;
      end $$;`);
    this.addSql(`
      create function forget_document_versions() returns trigger language plpgsql as $$
      begin
        delete from document_versions where document_type = tg_argv[0] and document_id = old.id;
        return null;
      end $$;`);
    for (const [table, type] of [['property_documents', 'property'], ['user_documents', 'personal']] as const) {
      this.addSql(`create trigger ${table}_first_version after insert on ${table} for each row execute function record_first_document_version('${type}');`);
      this.addSql(`create trigger ${table}_forget_versions after delete on ${table} for each row execute function forget_document_versions('${type}');`);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['property_documents', 'user_documents']) {
      this.addSql(`drop trigger if exists ${table}_first_version on ${table};`);
      this.addSql(`drop trigger if exists ${table}_forget_versions on ${table};`);
    }
    this.addSql('drop function if exists record_first_document_version();');
    this.addSql('drop function if exists forget_document_versions();');
    this.addSql('drop table if exists "document_versions" cascade;');
    this.addSql('alter table "property_documents" drop column "version", drop column "corrected_at";');
    this.addSql('alter table "user_documents" drop column "version", drop column "corrected_at";');
  }
}
