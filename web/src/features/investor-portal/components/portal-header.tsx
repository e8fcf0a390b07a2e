import { useEffect, useRef, useState } from 'react';
import { Badge, Button, Card, makeStyles, tokens } from '@fluentui/react-components';
import type { User } from '@everest/core/contract';
import { displayName, formatDateTime, portalMessages, roleLabels } from '@everest/core/domain';
import { showToast } from '../../../lib/toast';
import { usePortalSession } from '../lib/portal-session';
import { usePortalStyles } from './portal-styles';

const useStyles = makeStyles({
  layout: {
    display: 'flex',
    flexWrap: 'wrap',
    justifyContent: 'space-between',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalXL,
  },
  identity: { minWidth: 0, flex: '1 1 18rem' },
  welcome: { ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' } },
  facts: {
    margin: `${tokens.spacingVerticalM} 0 0`,
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    gap: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
  },
  term: { color: tokens.colorNeutralForeground2 },
  value: { margin: 0, overflowWrap: 'anywhere' },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    flex: '0 1 auto',
  },
});

export interface PortalHeaderProps {
  user: User;
  adminOpen: boolean;
  onToggleAdmin: () => void;
  profileOpen: boolean;
  onToggleProfile: () => void;
}

/** The signed-in header: who is signed in, and the portal's buttons (spec section 2). */
export function PortalHeader({ user, adminOpen, onToggleAdmin, profileOpen, onToggleProfile }: PortalHeaderProps) {
  const portal = usePortalStyles();
  const styles = useStyles();
  const session = usePortalSession();
  const isAdmin = user.role === 'administrator';
  const [refreshing, setRefreshing] = useState(false);
  const welcomeRef = useRef<HTMLHeadingElement>(null);

  // After signing in, the welcome line takes the focus, so screen readers announce the new view.
  const { cause } = session;
  useEffect(() => {
    if (cause === 'sign-in') welcomeRef.current?.focus();
  }, [cause]);

  const refresh = async () => {
    setRefreshing(true);
    try {
      const fresh = await session.refresh();
      // A new role is announced by the session itself ('Your role has been changed to …').
      if (fresh.role === user.role) {
        showToast({ title: 'Profile Refreshed', description: `Your role: ${roleLabels[fresh.role]}` });
      }
    } catch (error) {
      if (!session.endIfUnauthorized(error)) {
        showToast({ title: portalMessages.refreshFailed, variant: 'destructive' });
      }
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <Card className={portal.card}>
      <div className={styles.layout}>
        <div className={styles.identity}>
          <h2 ref={welcomeRef} tabIndex={-1} className={`${portal.cardTitle} ${styles.welcome}`}>
            {`Welcome, ${displayName(user)}`}
          </h2>
          <dl className={styles.facts}>
            <dt className={styles.term}>Email</dt>
            <dd className={styles.value}>{user.email}</dd>
            {user.entity && (
              <>
                <dt className={styles.term}>Entity</dt>
                <dd className={styles.value}>{user.entity}</dd>
              </>
            )}
            <dt className={styles.term}>Role</dt>
            <dd className={styles.value}>
              <Badge appearance="tint" color={isAdmin ? 'brand' : 'informative'}>
                {roleLabels[user.role]}
              </Badge>
            </dd>
            <dt className={styles.term}>Last login</dt>
            <dd className={styles.value}>
              {user.previousLoginAt ? `${formatDateTime(user.previousLoginAt)} Pacific Time` : 'This is your first sign-in'}
            </dd>
          </dl>
        </div>
        <div className={styles.actions} role="group" aria-label="Portal actions">
          {isAdmin && (
            <Button
              appearance={adminOpen ? 'primary' : 'secondary'}
              aria-expanded={adminOpen}
              aria-controls={adminOpen ? 'admin-panel-section' : undefined}
              onClick={onToggleAdmin}
            >
              Admin Panel
            </Button>
          )}
          <Button
            appearance={profileOpen ? 'primary' : 'secondary'}
            aria-expanded={profileOpen}
            aria-controls={profileOpen ? 'manage-profile' : undefined}
            onClick={onToggleProfile}
          >
            Manage Profile
          </Button>
          {isAdmin && (
            <Button onClick={() => void refresh()} disabledFocusable={refreshing}>
              {refreshing ? 'Refreshing...' : 'Refresh'}
            </Button>
          )}
          <Button onClick={session.signOut}>Logout</Button>
        </div>
      </div>
    </Card>
  );
}
