import { useState, type ReactNode } from 'react';
import { Card, makeStyles, tokens } from '@fluentui/react-components';
import type { User } from '@everest/core/contract';
import { useSecondStep } from '../api/second-step';
import { PortalDocuments } from '../documents/portal-documents';
import { usePortalSession } from '../lib/portal-session';
import { InvestorRelationsCard } from './investor-relations-card';
import { ManageProfileCard } from './manage-profile-card';
import { PortalHeader } from './portal-header';
import { usePortalStyles } from './portal-styles';
import { TwoStepSection } from './two-step-section';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
});

/** What the portal tells the administration panel it mounts. */
export interface AdminPanelMount {
  /** The signed-in administrator. */
  user: User;
  /**
   * The panel saved the signed-in user (their own row): the session shows it at once, and goes on
   * with `session` when the server issued one (a new role ends the sessions of the old).
   */
  onUserChanged: (user: User, session?: string) => void;
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
  const portal = usePortalStyles();
  // REQUIRE_SECOND_STEP names this role and there is none yet: the set-up comes first, and stays
  // until its backup codes are put away.
  const secondStep = useSecondStep();
  // Either method will do: an administrator who removed the app but keeps a passkey
  // is not asked again.
  const mustSetUp = !!secondStep.data?.required && !secondStep.data.totp && secondStep.data.passkeys.length === 0;
  // Until then the server refuses every call but the set-up, the profile and sign-out.
  const locked = mustSetUp;
  const [setUpOpen, setSetUpOpen] = useState(false);
  if (mustSetUp && !setUpOpen) setSetUpOpen(true);

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
      {setUpOpen && (
        <Card className={portal.card} aria-labelledby="two-step-required-title">
          <h2 id="two-step-required-title" className={portal.cardTitle}>
            Set up two-step sign-in
          </h2>
          <TwoStepSection
            intro="Your role must sign in with two steps: a code from an authenticator app on your phone after your password. Until it is on, your documents and the rest of the portal stay closed to you."
            onFinished={() => setSetUpOpen(false)}
          />
        </Card>
      )}
      {adminOpen && isAdmin && (
        <section id="admin-panel-section" aria-label="Administration">
          {adminPanel?.({
            user,
            onUserChanged: (changed, token) => (token ? session.continueAs(changed, token) : session.setUser(changed)),
          })}
        </section>
      )}
      {profileOpen && <ManageProfileCard user={user} twoStep={!setUpOpen} />}
      {!locked && <PortalDocuments user={user} />}
      <InvestorRelationsCard title="Investor Relations Contact" />
    </div>
  );
}
