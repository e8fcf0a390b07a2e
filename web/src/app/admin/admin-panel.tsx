import { useContext, useState, type ReactNode } from 'react';
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import {
  Card,
  CardHeader,
  Tab,
  TabList,
  Text,
  makeStyles,
  tokens,
  type SelectTabData,
} from '@fluentui/react-components';
import type { User } from '@everest/core/contract';
import { createQueryClient } from '../../lib/query-client';
import { ListAddressProvider } from '../../lib/admin/list-address';
import { ActivityTab } from '../../features/activity/components/activity-tab';
import { BulkImportTab } from '../../features/bulk-import/components/bulk-import-tab';
import { DocumentsTab } from '../../features/property-documents/components/documents-tab';
import { PropertiesTab } from '../../features/admin-properties/components/properties-tab';
import { SystemTab } from '../../features/system/components/system-tab';
import { ReadReceiptsTab } from '../../features/read-receipts/components/read-receipts-tab';
import { BulkUploadSection } from '../../features/bulk-upload/components/bulk-upload-section';
import { PersonalDocumentsTab } from '../../features/personal-documents/components/personal-documents-tab';
import { UsersTab } from '../../features/admin-users/components/users-tab';

export const adminTabs = [
  'documents',
  'users',
  'properties',
  'user-documents',
  'bulk-import',
  'read-receipts',
  'activity',
  'system',
] as const;
export type AdminTab = (typeof adminTabs)[number];

const adminTabLabels: Record<AdminTab, string> = {
  documents: 'Documents',
  users: 'Users',
  properties: 'Properties',
  'user-documents': 'User Documents',
  'bulk-import': 'Bulk Import',
  'read-receipts': 'Read Receipts',
  activity: 'Activity',
  system: 'System',
};

const useStyles = makeStyles({
  card: { maxWidth: '100%' },
  // The tabs wrap onto a second line rather than scroll: on a phone a tab scrolled out of view
  // was there for the arrow keys but not for the eye or a finger.
  tabs: { flexWrap: 'wrap' },
  body: { padding: `${tokens.spacingVerticalM} 0`, minWidth: 0 },
});

/**
 * The portal provides the app's query client; a host that provides none (the desktop shell
 * today) gets one for the panel, with the same defaults, rather than a crash on the first list.
 */
function PanelQueryClient({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  const [own] = useState(() => (outer ? null : createQueryClient()));
  return own ? <QueryClientProvider client={own}>{children}</QueryClientProvider> : children;
}

export interface AdminPanelProps {
  initialTab?: AdminTab;
  /**
   * The signed-in administrator (the portal passes it; the desktop app may not): their own row
   * keeps its e-mail and has no delete, and saving it reaches the session through
   * `onCurrentUserChanged`, so that a changed role is announced and the panel closes; with a new
   * role comes a new session token (`session`), the old one having ended with the old role.
   */
  currentUser?: User;
  onCurrentUserChanged?: (user: User, session?: string) => void;
}

export function AdminPanel({ initialTab = 'documents', currentUser, onCurrentUserChanged }: AdminPanelProps) {
  const styles = useStyles();
  const [tab, setTab] = useState<AdminTab>(initialTab);
  const onTabSelect = (_: unknown, data: SelectTabData) => {
    const value = adminTabs.find((t) => t === data.value);
    if (value) setTab(value);
  };

  return (
    <Card className={styles.card} aria-labelledby="admin-panel-title">
      <CardHeader
        header={
          <Text as="h2" size={500} weight="semibold" id="admin-panel-title">
            Administration Panel
          </Text>
        }
      />
      <TabList
        className={styles.tabs}
        selectedValue={tab}
        onTabSelect={onTabSelect}
        aria-label="Administration sections"
      >
        {adminTabs.map((t) => (
          <Tab key={t} value={t} id={`admin-tab-${t}`}>
            {adminTabLabels[t]}
          </Tab>
        ))}
      </TabList>
      <div role="tabpanel" aria-labelledby={`admin-tab-${tab}`} className={styles.body}>
        <PanelQueryClient>
          <ListAddressProvider>
            {tab === 'users' && <UsersTab currentUser={currentUser} onCurrentUserChanged={onCurrentUserChanged} />}
            {tab === 'documents' && <DocumentsTab />}
            {tab === 'properties' && <PropertiesTab />}
            {tab === 'user-documents' && <PersonalDocumentsTab bulkUpload={<BulkUploadSection />} />}
            {tab === 'bulk-import' && <BulkImportTab />}
            {tab === 'read-receipts' && <ReadReceiptsTab />}
            {tab === 'activity' && <ActivityTab />}
            {tab === 'system' && <SystemTab />}
          </ListAddressProvider>
        </PanelQueryClient>
      </div>
    </Card>
  );
}
