import { Migration } from '@mikro-orm/migrations';

/**
 * The user list's Status. `invited_at` is when the last welcome link was made and
 * `password_set_at` when the account's owner last chose a password; both are kept by the database,
 * so that every way of inviting (create-user, the bulk import, resend) and of setting a password
 * (a welcome or reset link, a change in the portal) records them without each having to remember.
 *
 * A welcome link lives 7 days and a reset link an hour (auth.service.ts): a link of more than a
 * day is an invitation. A password written by an UPDATE is the owner's: an administrator's
 * password is written only when the account is created (an INSERT), and an imported account gets
 * none ('').
 *
 * The list also counts each user's personal documents (the delete dialog names them), so a
 * document added or removed drops the cached list as an account change does.
 */
export class Migration20261127170000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" add column "invited_at" timestamptz null, add column "password_set_at" timestamptz null;`);
    this.addSql(`
      create function users_password_set() returns trigger language plpgsql as $$
      begin
        if new.password_hash <> '' and new.password_hash is distinct from old.password_hash then
          new.password_set_at := now();
        end if;
        return new;
      end $$;`);
    this.addSql(`create trigger users_password_set before update of password_hash on users for each row execute function users_password_set();`);
    this.addSql(`
      create function password_links_invite() returns trigger language plpgsql as $$
      begin
        if new.expires_at - new.created_at > interval '1 day' then
          update users set invited_at = new.created_at where id = new.user_id;
        end if;
        return null;
      end $$;`);
    this.addSql(`create trigger password_links_invite after insert on password_reset_tokens for each row execute function password_links_invite();`);
    // What the stored links still tell: welcome links not yet pruned, and links used or voided
    // (only a new password or address voids them) for a password chosen.
    this.addSql(`
      update users u set
        invited_at = (select max(t.created_at) from password_reset_tokens t where t.user_id = u.id and t.expires_at - t.created_at > interval '1 day'),
        password_set_at = (select max(t.used_at) from password_reset_tokens t where t.user_id = u.id)
      where exists (select 1 from password_reset_tokens t where t.user_id = u.id);`);
    this.addSql(`
      create trigger user_documents_notify_user_lists after insert or delete or truncate on user_documents
        for each statement execute function notify_change('user_lists_changed');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists user_documents_notify_user_lists on user_documents;');
    this.addSql('drop trigger if exists password_links_invite on password_reset_tokens;');
    this.addSql('drop function if exists password_links_invite();');
    this.addSql('drop trigger if exists users_password_set on users;');
    this.addSql('drop function if exists users_password_set();');
    this.addSql('alter table "users" drop column if exists "invited_at", drop column if exists "password_set_at";');
  }
}
