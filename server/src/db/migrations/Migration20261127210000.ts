import { Migration } from '@mikro-orm/migrations';

/**
 * The live shares cache (caches.ts `liveShares`): every read through a share asks
 * whether it is live, and the answer is kept until a share, its properties, or an owner's
 * activity or role changes. Only those columns of `users`: a sign-in writes its last-login time,
 * which says nothing about a share.
 */
export class Migration20261127210000 extends Migration {
  override async up(): Promise<void> {
    for (const table of ['shares', 'share_properties']) {
      this.addSql(`
        create trigger ${table}_notify_live_shares after insert or update or delete or truncate on ${table}
          for each statement execute function notify_change('live_shares_changed');`);
    }
    this.addSql(`
      create trigger users_notify_live_shares after update of is_active, role or delete or truncate on users
        for each statement execute function notify_change('live_shares_changed');`);
  }

  override async down(): Promise<void> {
    for (const table of ['shares', 'share_properties', 'users']) {
      this.addSql(`drop trigger if exists ${table}_notify_live_shares on ${table};`);
    }
  }
}
