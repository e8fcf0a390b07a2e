import { Migration } from '@mikro-orm/migrations';

/**
 * The administrators' user list (features/users/admin-users.service.ts) pages and searches
 * 20,000 users:
 * - a trigram index (pg_trgm, a trusted extension shipped with PostgreSQL's contrib, present in
 *   the embedded server, Debian's and the official image) serves `ILIKE '%smith%'` over name,
 *   entity and e-mail at once, which no B-tree can;
 * - a B-tree on the list's order answers a page without sorting every user.
 * Both expressions must stay exactly as the service writes them, or the planner ignores them.
 */
export class Migration20261125000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql(`
      create index "users_search_trgm_index" on "users"
        using gin ((first_name || ' ' || last_name || ' ' || entity || ' ' || email) gin_trgm_ops);`);
    this.addSql(`
      create index "users_admin_order_index" on "users"
        (lower(coalesce(nullif(last_name, ''), nullif(first_name, ''), entity)), lower(first_name), email, id);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "users_admin_order_index";');
    this.addSql('drop index if exists "users_search_trgm_index";');
    // The extension stays: other objects may have come to use it.
  }
}
