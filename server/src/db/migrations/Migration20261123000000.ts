import { Migration } from '@mikro-orm/migrations';

/**
 * Document lists answer each personal document's owner by e-mail (`userEmail`), so an e-mail
 * change must drop them as a role change does; without it the old address was served until the
 * cache's minute ran out. A user's id, the other column the lists read, never changes.
 */
export class Migration20261123000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop trigger users_notify_document_lists on users;');
    this.addSql(`
      create trigger users_notify_document_lists after update of email, role or delete or truncate on users
        for each statement execute function notify_change('document_lists_changed');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger users_notify_document_lists on users;');
    this.addSql(`
      create trigger users_notify_document_lists after update of role or delete or truncate on users
        for each statement execute function notify_change('document_lists_changed');`);
  }
}
