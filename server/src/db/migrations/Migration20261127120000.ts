import { Migration } from '@mikro-orm/migrations';

/**
 * Uploads under an Idempotency-Key keep the key in their audit row; a retry looks it up
 * by (administrator, key). The audit table grows with every preview and download, so the look-up
 * gets an index of its own, over the few rows that carry a key.
 */
export class Migration20261127120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create index "audit_events_idempotency_key_index" on "audit_events" ("user_id", (details->'after'->>'idempotencyKey'))
        where (details->'after'->>'idempotencyKey') is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "audit_events_idempotency_key_index";');
  }
}
