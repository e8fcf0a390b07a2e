import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121233022 } from './Migration20261121233022';
import { Migration20261122000000 } from './Migration20261122000000';
import { Migration20261122100000 } from './Migration20261122100000';
import { Migration20261123000000 } from './Migration20261123000000';
import { Migration20261123200000 } from './Migration20261123200000';
import { Migration20261125000000 } from './Migration20261125000000';
import { Migration20261125100000 } from './Migration20261125100000';
import { Migration20261125150000 } from './Migration20261125150000';
import { Migration20261125200000 } from './Migration20261125200000';
import { Migration20261125210000 } from './Migration20261125210000';
import { Migration20261125210500 } from './Migration20261125210500';
import { Migration20261125220000 } from './Migration20261125220000';
import { Migration20261125230000 } from './Migration20261125230000';
import { Migration20261126130000 } from './Migration20261126130000';
import { Migration20261126140000 } from './Migration20261126140000';
import { Migration20261127020000 } from './Migration20261127020000';
import { Migration20261127120000 } from './Migration20261127120000';
import { Migration20261127130000 } from './Migration20261127130000';
import { Migration20261127140000 } from './Migration20261127140000';
import { Migration20261127150000 } from './Migration20261127150000';
import { Migration20261127160000 } from './Migration20261127160000';
import { Migration20261127170000 } from './Migration20261127170000';
import { Migration20261127180000 } from './Migration20261127180000';
import { Migration20261127190000 } from './Migration20261127190000';
import { Migration20261127200000 } from './Migration20261127200000';
import { Migration20261127210000 } from './Migration20261127210000';
import { Migration20261201220000 } from './Migration20261201220000';
import { Migration20261202050000 } from './Migration20261202050000';
import { Migration20261203000000 } from './Migration20261203000000';
import { Migration20261207200000 } from './Migration20261207200000';

/**
 * Every migration in order, listed explicitly so that they run the same under tsx, in a bundle
 * and in tests. New ones: `pnpm --filter @everest/server migration:create`, then add a line here.
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121233022_initial', class: Migration20261121233022 },
  { name: 'Migration20261122000000_change_notifications', class: Migration20261122000000 },
  { name: 'Migration20261122100000_session_user_notifications', class: Migration20261122100000 },
  { name: 'Migration20261123000000_document_lists_follow_email', class: Migration20261123000000 },
  { name: 'Migration20261123200000_ended_sessions', class: Migration20261123200000 },
  { name: 'Migration20261125000000_admin_user_search', class: Migration20261125000000 },
  { name: 'Migration20261125100000_property_photos_and_names', class: Migration20261125100000 },
  { name: 'Migration20261125150000_user_list_notifications', class: Migration20261125150000 },
  { name: 'Migration20261125200000_outbox_templates', class: Migration20261125200000 },
  { name: 'Migration20261125210000_users_fillfactor', class: Migration20261125210000 },
  { name: 'Migration20261125210500_document_notification_pending', class: Migration20261125210500 },
  { name: 'Migration20261125220000_second_step', class: Migration20261125220000 },
  { name: 'Migration20261125230000_read_receipts', class: Migration20261125230000 },
  { name: 'Migration20261126130000_passkeys', class: Migration20261126130000 },
  { name: 'Migration20261126140000_document_versions', class: Migration20261126140000 },
  { name: 'Migration20261127020000_photo_formats', class: Migration20261127020000 },
  { name: 'Migration20261127120000_idempotency_keys', class: Migration20261127120000 },
  { name: 'Migration20261127130000_user_document_notification_pending', class: Migration20261127130000 },
  { name: 'Migration20261127140000_rate_limit_budgets', class: Migration20261127140000 },
  { name: 'Migration20261127150000_email_changes', class: Migration20261127150000 },
  { name: 'Migration20261127160000_sessions', class: Migration20261127160000 },
  { name: 'Migration20261127170000_user_invitation_status', class: Migration20261127170000 },
  { name: 'Migration20261127180000_audit_activity', class: Migration20261127180000 },
  { name: 'Migration20261127190000_outbox_lanes', class: Migration20261127190000 },
  { name: 'Migration20261127200000_shares', class: Migration20261127200000 },
  { name: 'Migration20261127210000_live_shares_cache', class: Migration20261127210000 },
  { name: 'Migration20261201220000_sign_in_codes', class: Migration20261201220000 },
  { name: 'Migration20261202050000_backups', class: Migration20261202050000 },
  { name: 'Migration20261203000000_investor_identifiers', class: Migration20261203000000 },
  { name: 'Migration20261207200000_property_documents_changed', class: Migration20261207200000 },
];
