import { Migration } from '@mikro-orm/migrations';

/**
 * The administrators' user list is cached per search and page (caches.ts): any change to an
 * account, a sign-in's last-login time included, drops it on every instance.
 */
export class Migration20261125150000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create trigger users_notify_user_lists after insert or update or delete or truncate on users
        for each statement execute function notify_change('user_lists_changed');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists users_notify_user_lists on users;');
  }
}
