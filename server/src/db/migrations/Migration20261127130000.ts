import { Migration } from '@mikro-orm/migrations';

/**
 * Personal documents published by bulk-upload-user-documents with `notifyLater` wait,
 * as property documents do (Migration20261125210500), for notify-documents, which announces a
 * quarter folder's two halves in one digest per reader and clears the flag as it sends.
 */
export class Migration20261127130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "user_documents" add column "notification_pending" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "user_documents" drop column "notification_pending";`);
  }
}
