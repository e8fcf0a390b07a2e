import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from '../../../lib/router';
import { Button, Card, Spinner, Text } from '@fluentui/react-components';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@everest/core/client';
import { portalMessages, portalSuccess } from '@everest/core/domain';
import type { ScrollState } from '../../../lib/scroll';
import { useConfirmEmailChange, useUndoEmailChange } from '../api/email-change';
import { profileQueryKey } from '../api/profile';
import { usePortalStyles } from './portal-styles';

/** The link of an e-mail change the portal was opened with. */
export interface EmailLink {
  kind: 'confirm' | 'undo';
  token: string;
}

const linkParams = { confirm: 'confirmEmail', undo: 'undoEmail' } as const;

/**
 * The link of an e-mail change (`/investor-services?confirmEmail=…` or `?undoEmail=…`), read once
 * and then removed from the address bar, as the reset link's token is (use-reset-token.ts), so
 * that it does not stay in the history, in bookmarks or in a shared screenshot of the address.
 */
export function useEmailLinkFromAddress(): EmailLink | null {
  const location = useLocation();
  const navigate = useNavigate();
  const [link] = useState<EmailLink | null>(() => {
    const params = new URLSearchParams(location.search);
    const confirm = params.get(linkParams.confirm);
    if (confirm) return { kind: 'confirm', token: confirm };
    const undo = params.get(linkParams.undo);
    return undo ? { kind: 'undo', token: undo } : null;
  });

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has(linkParams.confirm) && !params.has(linkParams.undo)) return;
    params.delete(linkParams.confirm);
    params.delete(linkParams.undo);
    const search = params.toString();
    // The same page: the card keeps the focus rather than the main region taking it (lib/scroll.ts).
    const state: ScrollState = { keepScroll: true };
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true, state });
  }, [location.pathname, location.search, location.hash, navigate]);

  return link;
}

const texts = {
  confirm: {
    title: 'Confirm your new email address',
    intro: 'Confirm that this address, where our link was sent, is to be the email address of your investor portal account. From then on you sign in with it.',
    action: 'Confirm Email Address',
    pending: 'Confirming...',
  },
  undo: {
    title: 'Undo the email address change',
    intro: 'If you did not ask for the change of your email address, undo it: the account keeps or gets back this address, every device is signed out, and we e-mail you a link to choose a new password.',
    action: 'Undo the Change',
    pending: 'Undoing...',
  },
} as const;

/**
 * The outcome of an e-mail change's link, signed in or not. Nothing happens until the reader
 * presses the button: mail scanners that open links must not confirm or undo anything.
 */
export function EmailLinkCard({ link, onClose }: { link: EmailLink; onClose: () => void }) {
  const portal = usePortalStyles();
  const queryClient = useQueryClient();
  const confirm = useConfirmEmailChange();
  const undo = useUndoEmailChange();
  const mutation = link.kind === 'confirm' ? confirm : undo;
  const text = texts[link.kind];
  const actionRef = useRef<HTMLButtonElement>(null);
  const outcomeRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => actionRef.current?.focus(), []);
  const settled = mutation.isSuccess || mutation.isError;
  useEffect(() => {
    if (settled) outcomeRef.current?.focus();
  }, [settled]);

  const act = () => {
    if (mutation.isPending || settled) return;
    mutation.mutate(
      { token: link.token },
      {
        // A session open in this browser shows the new address, or ends (undo signs out everywhere).
        onSuccess: () => void queryClient.invalidateQueries({ queryKey: profileQueryKey }),
      },
    );
  };

  let outcome: { title: string; description: string; failed: boolean } | null = null;
  if (mutation.isSuccess) {
    const success = link.kind === 'confirm' ? portalSuccess.emailChangeConfirmed(mutation.data.email) : portalSuccess.emailChangeUndone(mutation.data.email);
    outcome = { title: success.title, description: mutation.data.message, failed: false };
  } else if (mutation.isError) {
    const invalid = mutation.error instanceof ApiError && mutation.error.status === 400;
    outcome = invalid
      ? { ...portalMessages.invalidEmailChangeLink, failed: true }
      : { title: portalMessages.emailChangeFailed, description: mutation.error.message, failed: true };
  }

  return (
    <Card className={portal.card} aria-labelledby="email-link-title" data-testid="email-link-card">
      {outcome ? (
        <div className={portal.form} role={outcome.failed ? 'alert' : 'status'}>
          <h2 id="email-link-title" ref={outcomeRef} tabIndex={-1} className={portal.cardTitle}>
            {outcome.title}
          </h2>
          <Text>{outcome.description}</Text>
          <div className={portal.buttons}>
            <Button onClick={onClose}>Close</Button>
          </div>
        </div>
      ) : (
        <div className={portal.form}>
          <h2 id="email-link-title" className={portal.cardTitle}>
            {text.title}
          </h2>
          <Text>{text.intro}</Text>
          {mutation.isPending && <Spinner size="small" label={text.pending} />}
          <div className={portal.buttons}>
            <Button ref={actionRef} appearance="primary" onClick={act} disabledFocusable={mutation.isPending}>
              {mutation.isPending ? text.pending : text.action}
            </Button>
            <Button onClick={onClose} disabled={mutation.isPending}>
              Not Now
            </Button>
          </div>
        </div>
      )}
    </Card>
  );
}
