import { Migration } from '@mikro-orm/migrations';

/**
 * Room for updates on the users' pages: a bulk import that changes addresses (no indexed column)
 * can then write each new row version beside the old one (a HOT update) instead of adding it to
 * every index, the trigram index included. Pages written from now on keep 10% free.
 */
export class Migration20261125210000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "users" set (fillfactor = 90);');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "users" reset (fillfactor);');
  }
}
