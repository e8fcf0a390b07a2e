import { useState, type ReactNode } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import type { User } from '@everest/core/contract';
import { YourDocuments } from '../documents/your-documents';
import { usePortalSession } from '../lib/portal-session';
import { InvestorRelationsCard } from './investor-relations-card';
import { ManageProfileCard } from './manage-profile-card';
import { PortalHeader } from './portal-header';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
});

/** What the portal tells the administration panel it mounts. */
export interface AdminPanelMount {
  /** The signed-in administrator. */
  user: User;
  /** The panel saved the signed-in user (their own row): the session shows it at once. */
  onUserChanged: (user: User) => void;
}

export interface SignedInViewProps {
  user: User;
  /** The administration panel, supplied by the app (the portal does not import other features). */
  adminPanel?: (mount: AdminPanelMount) => ReactNode;
}

/** The portal once signed in: header, then admin panel, profile, documents and contact. */
export function SignedInView({ user, adminPanel }: SignedInViewProps) {
  const styles = useStyles();
  const session = usePortalSession();
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
          {adminPanel?.({ user, onUserChanged: session.setUser })}
        </section>
      )}
      {profileOpen && <ManageProfileCard user={user} />}
      <YourDocuments />
      <InvestorRelationsCard title="Investor Relations Contact" />
    </div>
  );
}
