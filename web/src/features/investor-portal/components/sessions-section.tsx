import { useRef, useState } from 'react';
import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Divider,
  makeStyles,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { SignedInSession } from '@everest/core/contract';
import { formatDateTime } from '@everest/core/domain';
import { showToast } from '../../../lib/toast';
import { useEndOtherSessions, useEndSession, useSessions } from '../api/sessions';
import { usePortalSession } from '../lib/portal-session';
import { usePortalStyles } from './portal-styles';

const useStyles = makeStyles({
  name: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  heading: { outlineOffset: '2px' },
  // The dialog's action column is narrow on a wide screen: the label stays on one line.
  noWrap: { whiteSpace: 'nowrap' },
});

/** Where and when, as the row's second line says it. */
function whereAndWhen(session: SignedInSession): string {
  const where = session.address || 'Unknown address';
  return `${where} · ${session.current ? 'Active now' : `Last used ${formatDateTime(session.lastUsedAt)}`}`;
}

/** 'Sign out everywhere else' asks first: it cannot be taken back. */
function EndOthersDialog({ count, onClose, onEnded }: { count: number; onClose: () => void; onEnded: () => void }) {
  const portal = usePortalStyles();
  const styles = useStyles();
  const session = usePortalSession();
  const endOthers = useEndOtherSessions();

  const confirm = () => {
    if (endOthers.isPending) return;
    endOthers.mutate(undefined, {
      onSuccess: (answer) => {
        showToast({ title: answer.message });
        onEnded();
      },
      onError: (error) => {
        if (session.endIfUnauthorized(error)) return;
        showToast({ title: 'The other devices were not signed out', description: error.message, variant: 'destructive' });
      },
    });
  };

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Sign out everywhere else?</DialogTitle>
          <DialogContent className={portal.form}>
            <Text>
              {count === 1 ? 'The other device' : `The ${count} other devices`} signed in to your account will be signed out at once. This device
              stays signed in.
            </Text>
          </DialogContent>
          <DialogActions>
            <Button className={styles.noWrap} appearance="primary" disabledFocusable={endOthers.isPending} onClick={confirm}>
              {endOthers.isPending ? 'Signing out...' : 'Sign out everywhere else'}
            </Button>
            <Button onClick={onClose}>Cancel</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/**
 * Manage Profile's 'Signed-in devices': each live session of the account (device,
 * address, last use; this one marked), a 'Sign out' for each other, and 'Sign out everywhere
 * else', as GitHub and Google accounts offer. The server refuses an ended session from its next
 * request, on every instance.
 */
export function SessionsSection() {
  const portal = usePortalStyles();
  const styles = useStyles();
  const portalSession = usePortalSession();
  const sessions = useSessions();
  const endOne = useEndSession();
  const [confirming, setConfirming] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const endOthersRef = useRef<HTMLButtonElement>(null);

  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current);

  // A button that is gone with its session leaves the focus nowhere: the heading takes it.
  const focusHeading = () => requestAnimationFrame(() => headingRef.current?.focus());

  const signOut = (session: SignedInSession) => {
    if (endOne.isPending) return;
    endOne.mutate(session.id, {
      onSuccess: (answer) => {
        showToast({ title: answer.message, description: session.device });
        focusHeading();
      },
      onError: (error) => {
        if (portalSession.endIfUnauthorized(error)) return;
        showToast({ title: 'The device was not signed out', description: error.message, variant: 'destructive' });
      },
    });
  };

  return (
    <>
      <Divider />
      <section className={portal.form} aria-labelledby="sessions-title">
        <h3 id="sessions-title" className={`${portal.sectionTitle} ${styles.heading}`} tabIndex={-1} ref={headingRef}>
          Signed-in devices
        </h3>
        <Text className={portal.muted}>
          Where your account is signed in now. If you do not recognise one, sign it out and change your password.
        </Text>
        {sessions.data ? (
          <>
            <ul className={portal.itemList} aria-label="Signed-in devices">
              {list.map((session) => (
                <li key={session.id} className={portal.item}>
                  <span className={portal.itemText}>
                    <span className={styles.name}>
                      <Text weight="semibold">{session.device}</Text>
                      {session.current && (
                        <Badge appearance="tint" color="success">
                          This device
                        </Badge>
                      )}
                    </span>
                    <Text size={200} className={portal.muted}>
                      {whereAndWhen(session)}
                    </Text>
                  </span>
                  {!session.current && (
                    <Button
                      size="small"
                      aria-label={`Sign out ${session.device}, ${whereAndWhen(session)}`}
                      disabledFocusable={endOne.isPending}
                      onClick={() => signOut(session)}
                    >
                      Sign out
                    </Button>
                  )}
                </li>
              ))}
            </ul>
            {others.length > 0 ? (
              <div className={portal.buttons}>
                <Button ref={endOthersRef} onClick={() => setConfirming(true)}>
                  Sign out everywhere else
                </Button>
              </div>
            ) : (
              <Text>No other device is signed in.</Text>
            )}
            {confirming && (
              <EndOthersDialog
                count={others.length}
                onClose={() => {
                  setConfirming(false);
                  requestAnimationFrame(() => endOthersRef.current?.focus());
                }}
                onEnded={() => {
                  setConfirming(false);
                  focusHeading();
                }}
              />
            )}
          </>
        ) : sessions.isError ? (
          // The server's sentence: 'Please turn on two-step sign-in…' for a role that must first.
          <Text role="alert">{sessions.error.message || 'The signed-in devices could not be loaded.'}</Text>
        ) : (
          <Spinner size="tiny" label="Loading..." />
        )}
      </section>
    </>
  );
}
