import { Migration } from '@mikro-orm/migrations';

/** Backups as the System tab reports them, and the e-mails sent about them (features/backups). */
export class Migration20261202050000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "backup_runs" (
        "id" serial primary key,
        "trigger" text check ("trigger" in ('schedule', 'command')) not null,
        "outcome" text check ("outcome" in ('running', 'succeeded', 'failed')) not null,
        "started_at" timestamptz not null,
        "finished_at" timestamptz null,
        "location" text not null,
        "archive" text null,
        "size_bytes" bigint null,
        "files_copied" int null,
        "files_total" int null,
        "same_disk" boolean not null,
        "message" text null
      );`);
    this.addSql(`create table "backup_alerts" ("kind" varchar(40) not null, "sent_at" timestamptz not null, constraint "backup_alerts_pkey" primary key ("kind"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "backup_alerts";');
    this.addSql('drop table if exists "backup_runs";');
  }
}
