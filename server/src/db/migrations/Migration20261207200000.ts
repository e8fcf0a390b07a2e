import { Migration } from '@mikro-orm/migrations';

/**
 * The property documents' list entries, kept per property (cacheTable.propertyDocuments), are
 * dropped when a document, its property or its stored file changes; not on a first read, which
 * drops only the investors' lists (a read changes a badge, not a document).
 */
export class Migration20261207200000 extends Migration {
  override async up(): Promise<void> {
    for (const table of ['properties', 'property_documents', 'stored_files']) {
      this.addSql(`
        create trigger ${table}_notify_property_documents after insert or update or delete or truncate on ${table}
          for each statement execute function notify_change('property_documents_changed');`);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['properties', 'property_documents', 'stored_files']) {
      this.addSql(`drop trigger if exists ${table}_notify_property_documents on ${table};`);
    }
  }
}
