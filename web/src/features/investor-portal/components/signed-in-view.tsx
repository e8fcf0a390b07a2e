import { useState, type ReactNode } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import type { User } from '@everest/core/contract';
import { YourDocuments } from '../documents/your-documents';
import { InvestorRelationsCard } from './investor-relations-card';
import { ManageProfileCard } from './manage-profile-card';
import { PortalHeader } from './portal-header';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
});

export interface SignedInViewProps {
  user: User;
  /** The administration panel, supplied by the app (the portal does not import other features). */
  adminPanel?: ReactNode;
}

/** The portal once signed in: header, then admin panel, profile, documents and contact. */
export function SignedInView({ user, adminPanel }: SignedInViewProps) {
  const styles = useStyles();
  const isAdmin = user.role === 'administrator';
  const [adminOpen, setAdminOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);

  // Spec section 4: a non-administrator cannot keep the admin panel open. Closing unmounts it,
  // so it opens on its first tab (documents) the next time.
  if (adminOpen && !isAdmin) setAdminOpen(false);

  return (
    <div className={styles.root}>
      <PortalHeader
        user={user}
        adminOpen={adminOpen}
        onToggleAdmin={() => setAdminOpen((open) => !open)}
        profileOpen={profileOpen}
        onToggleProfile={() => setProfileOpen((open) => !open)}
      />
      {adminOpen && isAdmin && (
        <section id="admin-panel-section" aria-label="Administration">
          {adminPanel}
        </section>
      )}
      {profileOpen && <ManageProfileCard user={user} />}
      <YourDocuments />
      <InvestorRelationsCard title="Investor Relations Contact" />
    </div>
  );
}
