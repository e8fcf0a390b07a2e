import { Migration } from '@mikro-orm/migrations';

/**
 * The administrators' user list (features/users/admin-users.service.ts) pages and searches
 * 20,000 users:
 * - `search_text`, the full name, entity and e-mail lower-cased once when a row is written,
 *   so that a search compares with LIKE rather than lower-casing every row on every request
 *   (ILIKE over the same text took two to three times as long);
 * - a trigram index (pg_trgm, a trusted extension shipped with PostgreSQL's contrib, present in
 *   the embedded server, Debian's and the official image) serves `LIKE '%smith%'`, which no
 *   B-tree can;
 * - a B-tree on the list's order answers a page without sorting every user.
 * The User entity declares all three, so that a generated migration keeps them; the service
 * must write the order exactly as the index does, or the planner ignores it.
 */
export class Migration20261125000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql(`
      alter table "users" add column "search_text" text
        generated always as (lower(first_name || ' ' || last_name || ' ' || entity || ' ' || email)) stored;`);
    this.addSql('create index "users_search_text_index" on "users" using gin ("search_text" gin_trgm_ops);');
    this.addSql(`
      create index "users_admin_order_index" on "users"
        (lower(coalesce(nullif(last_name, ''), nullif(first_name, ''), entity)), lower(first_name), email, id);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "users_admin_order_index";');
    this.addSql('drop index if exists "users_search_text_index";');
    this.addSql('alter table "users" drop column if exists "search_text";');
    // The extension stays: other objects may have come to use it.
  }
}
