import { Migration } from '@mikro-orm/migrations';

/**
 * The Activity tab: staff changes newest first, filtered by person, by action or by
 * neither, with dates. Partial indexes over the staff's changes only: document reads (most rows,
 * written on every download) neither pay for them nor fill them. Their predicate is the one the
 * service's queries use (`activity.service.ts`, `staffChange`).
 */
export class Migration20261127180000 extends Migration {
  override async up(): Promise<void> {
    const staffChange = `where "action" not in ('preview', 'download')`;
    this.addSql(`create index "audit_events_activity_index" on "audit_events" ("created_at" desc, "id" desc) ${staffChange}`);
    this.addSql(`create index "audit_events_activity_user_index" on "audit_events" ("user_id", "created_at" desc, "id" desc) ${staffChange}`);
    this.addSql(`create index "audit_events_activity_action_index" on "audit_events" ("action", "created_at" desc, "id" desc) ${staffChange}`);
    this.addSql(`create index "audit_events_activity_user_action_index" on "audit_events" ("user_id", "action", "created_at" desc, "id" desc) ${staffChange}`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "audit_events_activity_user_action_index";');
    this.addSql('drop index if exists "audit_events_activity_action_index";');
    this.addSql('drop index if exists "audit_events_activity_user_index";');
    this.addSql('drop index if exists "audit_events_activity_index";');
  }
}
