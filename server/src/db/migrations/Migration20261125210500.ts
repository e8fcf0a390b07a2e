import { Migration } from '@mikro-orm/migrations';

/**
 * A property document uploaded with `notifyLater` waits for notify-documents to announce it in
 * one digest with the rest of its batch (the watched-folder sync); the flag is cleared by the
 * statement that sends the digest, so a document is announced once.
 */
export class Migration20261125210500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "property_documents" add column "notification_pending" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "property_documents" drop column "notification_pending";`);
  }
}
