import { lazy, Suspense } from 'react';
import { Spinner } from '@fluentui/react-components';
import { InvestorPortal } from '../../features/investor-portal/components/investor-portal';
import { QueryProvider } from '../../lib/query-provider';

// The admin panel is its own chunk, fetched only when an administrator opens it.
const AdminPanel = lazy(() =>
  import('../admin/admin-panel').then((m) => ({ default: m.AdminPanel })),
);

export default function InvestorServicesRoute() {
  return (
    <QueryProvider>
      <InvestorPortal
        adminPanel={({ user, onUserChanged }) => (
          <Suspense fallback={<Spinner size="small" label="Loading the administration panel..." />}>
            <AdminPanel currentUser={user} onCurrentUserChanged={onUserChanged} />
          </Suspense>
        )}
      />
    </QueryProvider>
  );
}
