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
  useRestoreFocusTarget,
} from '@fluentui/react-components';
import { ApiError } from '@everest/core/client';
import type { OutgoingShare, OwnerProof } from '@everest/core/contract';
import { showToast } from '../../../lib/toast';
import { useCodeAllowed } from '../api/second-step';
import { useCreateShare, useRevokeShare, useShares } from '../api/shares';
import { usePortalSession } from '../lib/portal-session';
import { shareEndWords, shareScopeWords, shareStatusLabels } from '../../../lib/share-words';
import { ConfirmOwnerDialog } from './confirm-owner-dialog';
import { usePortalStyles } from './portal-styles';
import { ShareAccessDialog } from './share-access-dialog';
import type { ShareDraft } from '../lib/share-form';

const useStyles = makeStyles({
  name: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  heading: { outlineOffset: '2px' },
  noWrap: { whiteSpace: 'nowrap' },
});

const statusColors = { invited: 'warning', active: 'success', expired: 'subtle' } as const;

/** Who a share is with, as the row and its dialogs name them. */
function delegateLabel(share: OutgoingShare): string {
  return share.delegateName ? `${share.delegateName} (${share.delegateEmail})` : share.delegateEmail;
}

/** 'Revoke' asks first; the delegate loses access from their next request. */
function RevokeDialog({ share, onClose, onRevoked }: { share: OutgoingShare; onClose: () => void; onRevoked: () => void }) {
  const portal = usePortalStyles();
  const styles = useStyles();
  const session = usePortalSession();
  const revoke = useRevokeShare();

  const confirm = () => {
    if (revoke.isPending) return;
    revoke.mutate(share.id, {
      onSuccess: (answer) => {
        showToast({ title: answer.message });
        onRevoked();
      },
      onError: (error) => {
        if (session.endIfUnauthorized(error)) return;
        showToast({ title: 'The access was not revoked', description: error.message, variant: 'destructive' });
      },
    });
  };

  return (
    <Dialog modalType="alert" open onOpenChange={(_, data) => !data.open && !revoke.isPending && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{`Revoke access of ${share.delegateName ?? share.delegateEmail}?`}</DialogTitle>
          <DialogContent className={portal.form}>
            <Text>
              {`${share.delegateEmail} will no longer see your documents, from their next request. Files they have already downloaded stay with them. You can share again later.`}
            </Text>
          </DialogContent>
          <DialogActions>
            <Button className={styles.noWrap} onClick={onClose} disabled={revoke.isPending}>
              Cancel
            </Button>
            <Button className={styles.noWrap} appearance="primary" disabledFocusable={revoke.isPending} onClick={confirm}>
              {revoke.isPending ? 'Revoking...' : 'Revoke access'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function ShareRow({ share, onRevoke }: { share: OutgoingShare; onRevoke: (share: OutgoingShare) => void }) {
  const portal = usePortalStyles();
  const styles = useStyles();
  // The revoke dialog is opened from state: focus goes back to this button when it is cancelled.
  const restoreFocusTarget = useRestoreFocusTarget();
  const when = [shareEndWords(share.endsOn), share.notify ? 'E-mailed about new documents' : 'Not e-mailed about new documents'];
  return (
    <li className={portal.item} data-testid="outgoing-share">
      <span className={portal.itemText}>
        <span className={styles.name}>
          <Text weight="semibold">{share.delegateName ?? share.delegateEmail}</Text>
          <Badge appearance="tint" color={statusColors[share.status]}>
            {shareStatusLabels[share.status]}
          </Badge>
        </span>
        {share.delegateName && (
          <Text size={200} className={portal.muted}>
            {share.delegateEmail}
          </Text>
        )}
        <Text>{shareScopeWords(share)}</Text>
        <Text size={200} className={portal.muted}>
          {when.join(' · ')}
        </Text>
      </span>
      <Button {...restoreFocusTarget} size="small" aria-label={`Revoke access of ${delegateLabel(share)}`} onClick={() => onRevoke(share)}>
        Revoke
      </Button>
    </li>
  );
}

/**
 * Manage Profile's 'Shared access', for investors: the people who may see chosen
 * documents of theirs (an accountant, a spouse, a family office), view and download only, and
 * 'Share access' for another. Sharing asks the owner's proof, as changing the e-mail or the password does: sight
 * of K-1s is worth as much as the account.
 */
export function SharesSection() {
  const portal = usePortalStyles();
  const styles = useStyles();
  const shares = useShares();
  const create = useCreateShare();
  const codeAllowed = useCodeAllowed();
  /** The form while it is open, and kept while the proof is asked, so that Back keeps what was typed. */
  const [draft, setDraft] = useState<ShareDraft | null>(null);
  const [step, setStep] = useState<'form' | 'proof' | null>(null);
  /** A refusal of the address itself (already shared with), shown at the e-mail field. */
  const [emailProblem, setEmailProblem] = useState<string | undefined>();
  const [revoking, setRevoking] = useState<OutgoingShare | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shareButtonRef = useRef<HTMLButtonElement>(null);

  const focusLater = (element: { focus: () => void } | null) => requestAnimationFrame(() => element?.focus());

  const closeAll = () => {
    setStep(null);
    setDraft(null);
    setEmailProblem(undefined);
    focusLater(shareButtonRef.current);
  };

  const share = async (proof: OwnerProof) => {
    if (!draft) return;
    try {
      const answer = await create.mutateAsync({ ...draft.body, ...proof });
      showToast({ title: 'Access Shared', description: answer.message });
      closeAll();
    } catch (failure) {
      // 'Already shared with': the address is the problem, not the password; back to the form.
      if (failure instanceof ApiError && failure.status === 409) {
        setEmailProblem(failure.message);
        setStep('form');
        return;
      }
      throw failure;
    }
  };

  const data = shares.data;
  return (
    <>
      <Divider />
      <section className={portal.form} aria-labelledby="shares-title">
        <h3 id="shares-title" className={`${portal.sectionTitle} ${styles.heading}`} tabIndex={-1} ref={headingRef}>
          Shared access
        </h3>
        {data ? (
          data.sharingAllowed ? (
            <>
              <Text className={portal.muted}>
                Let your accountant, spouse or family office see the documents you choose, view and download only. They never change
                your profile and never share further. You can revoke it at any time.
              </Text>
              {data.shares.length > 0 ? (
                <ul className={portal.itemList} aria-label="People you share with">
                  {data.shares.map((s) => (
                    <ShareRow key={s.id} share={s} onRevoke={setRevoking} />
                  ))}
                </ul>
              ) : (
                <Text>You share your documents with nobody.</Text>
              )}
              <div className={portal.buttons}>
                <Button ref={shareButtonRef} onClick={() => setStep('form')}>
                  Share access
                </Button>
              </div>
            </>
          ) : (
            <Text>The firm has turned shared access off: nobody can see your documents through a share.</Text>
          )
        ) : shares.isError ? (
          <Text role="alert">{shares.error.message || 'Your shared access could not be loaded.'}</Text>
        ) : (
          <Spinner size="tiny" label="Loading..." />
        )}
      </section>
      {data && step === 'form' && (
        <ShareAccessDialog
          properties={data.properties}
          initial={draft}
          emailProblem={emailProblem}
          onContinue={(next) => {
            setDraft(next);
            setEmailProblem(undefined);
            setStep('proof');
          }}
          onClose={closeAll}
        />
      )}
      {draft && step === 'proof' && (
        <ConfirmOwnerDialog
          title="Confirm the share"
          confirmLabel="Share"
          pendingLabel="Sharing..."
          codeAllowed={codeAllowed}
          onConfirm={share}
          onClose={() => setStep('form')}
        >
          <Text>{`${draft.body.email} will see: ${shareScopeWords({ ...draft.body, properties: draft.chosenProperties })}. ${shareEndWords(draft.body.endsOn ?? null)}.`}</Text>
          <Text>We will e-mail them a link to sign in, or to choose a password if they have no account yet.</Text>
        </ConfirmOwnerDialog>
      )}
      {revoking && (
        <RevokeDialog
          share={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={() => {
            setRevoking(null);
            // The row and its button are gone: the heading takes the focus.
            focusLater(headingRef.current);
          }}
        />
      )}
    </>
  );
}
