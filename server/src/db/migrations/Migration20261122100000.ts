import { Migration } from '@mikro-orm/migrations';

/**
 * Session checks read users from memory (see features/auth/session.ts): any change to what a
 * session depends on drops them. Document lists depend on a user's role alone, so a sign-in
 * (which writes last_login_at) no longer drops every investor's cached list.
 */
export class Migration20261122100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create trigger users_notify_session_users
        after insert or update of email, role, is_active, token_version or delete or truncate on users
        for each statement execute function notify_change('session_users_changed');`);
    this.addSql('drop trigger users_notify_document_lists on users;');
    this.addSql(`
      create trigger users_notify_document_lists after update of role or delete or truncate on users
        for each statement execute function notify_change('document_lists_changed');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger users_notify_session_users on users;');
    this.addSql('drop trigger users_notify_document_lists on users;');
    this.addSql(`
      create trigger users_notify_document_lists after insert or update or delete or truncate on users
        for each statement execute function notify_change('document_lists_changed');`);
  }
}
