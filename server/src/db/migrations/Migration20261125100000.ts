import { Migration } from '@mikro-orm/migrations';

/**
 * Property administration: an uploaded photo is kept as web-sized copies, listed for the public
 * pages' `srcset`; and property names are unique whatever their letter case, so that two
 * administrators cannot add 'Oak Manor' and 'OAK MANOR' at the same moment.
 */
export class Migration20261125100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "properties" add column "image_variants" jsonb null;`);
    this.addSql(`create unique index "properties_name_lower_unique" on "properties" (lower("name"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "properties_name_lower_unique";`);
    this.addSql(`alter table "properties" drop column "image_variants";`);
  }
}
