import { Migration } from '@mikro-orm/migrations';

/**
 * Cached reads (the public property list, investors' document lists) are dropped when the rows
 * behind them change. Triggers announce every change, whatever code path made it, so no
 * write can forget to; NOTIFY inside a transaction is delivered only if it commits.
 */
export class Migration20261122000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function notify_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify(tg_argv[0], '');
        return null;
      end $$;`);
    this.addSql(`
      create trigger properties_notify_property_list after insert or update or delete or truncate on properties
        for each statement execute function notify_change('property_list_changed');`);
    for (const table of ['properties', 'property_documents', 'user_documents', 'property_access', 'stored_files', 'users']) {
      this.addSql(`
        create trigger ${table}_notify_document_lists after insert or update or delete or truncate on ${table}
          for each statement execute function notify_change('document_lists_changed');`);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['properties', 'property_documents', 'user_documents', 'property_access', 'stored_files', 'users']) {
      this.addSql(`drop trigger if exists ${table}_notify_document_lists on ${table};`);
    }
    this.addSql('drop trigger if exists properties_notify_property_list on properties;');
    this.addSql('drop function if exists notify_change();');
  }
}
